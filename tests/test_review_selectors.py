"""Review selectors (annotations/selectors.py): merge candidates, spelling variants,
free occurrences and the per-page minimap."""

from annotations.selectors import (
    EntityRow,
    SpanRow,
    review_free_occurrences,
    review_merge_candidates,
    review_minimap,
    review_spelling_variants,
)


def entity(i, ref, label, *forms):
    return EntityRow(id=i, ref=ref, label=label, forms=[(f, 1) for f in forms], mentions=1,
                     undecided=1, rejected=0)  # fmt: skip


def row(i, start, text, status="suggested", page=1, entity_id=1):
    return SpanRow(id=i, start=start, end=start + len(text), label="PERSON", status=status,
                   score=0.5, provenance=None, version=1, entity_id=entity_id, ref="PERSON_1",
                   text=text, page=page)  # fmt: skip


def test_merge_candidates_are_similar_spellings_of_the_same_label_best_first():
    walker = entity(1, "PERSON_1", "PERSON", "Walker")
    others = [
        entity(2, "PERSON_2", "PERSON", "Walkor"),
        entity(3, "PERSON_3", "PERSON", "Greene"),
        entity(4, "PERSON_4", "PERSON", "WALKER"),
        entity(5, "CITY_1", "LOCATION", "Walker"),
        entity(6, "PERSON_6", "PERSON", "Davis"),
    ]
    found = review_merge_candidates(entity=walker, others=others)
    assert [c.entity.ref for c in found] == ["PERSON_4", "PERSON_2"]
    green = entity(7, "PERSON_7", "PERSON", "Green")
    assert [c.entity.ref for c in review_merge_candidates(entity=green, others=others)] == [
        "PERSON_3"
    ]


def test_spelling_variants_leave_out_the_groups_main_form_and_rejected_mentions():
    group = [row(1, 0, "Walker"), row(2, 10, "Walker"), row(3, 20, "Walkor"),
             row(4, 30, "WALKER"), row(5, 40, "Walkr", status="rejected")]  # fmt: skip
    variants = review_spelling_variants(group)
    assert [(v.form, v.span_ids) for v in variants] == [("Walkor", [3])]
    assert review_spelling_variants([row(1, 0, "Walker")]) == []


def test_free_occurrences_skip_text_already_covered_by_a_span():
    text = "Tulare. In Tulare. Tulare County. Tulares. Tulare"
    rows = [row(1, 0, "Tulare"), row(2, 11, "Tulare"), row(3, 19, "Tulare County")]
    free = review_free_occurrences(text=text, row=rows[0], rows=rows)
    assert free == [(43, 49)]  # not "Tulares" (not a whole word), not the covered ones


def test_minimap_counts_undecided_spans_per_page_including_empty_pages():
    rows = [
        row(1, 0, "A", page=1),
        row(2, 5, "B", page=1, status="accepted"),
        row(3, 9, "C", page=3),
    ]
    cells = review_minimap(rows=rows, pages=4)
    assert [(c.page, c.undecided, c.total) for c in cells] == [
        (1, 1, 2), (2, 0, 0), (3, 1, 1), (4, 0, 0),
    ]  # fmt: skip
