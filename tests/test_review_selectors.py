"""Review selectors (the package annotations/selectors/): merge candidates, spelling variants,
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


def test_sql_aggregates_equal_the_python_pass_over_every_row_after_mixed_actions(db):
    """The counter, the label headers and the minimap cells an action's answer sends
    (SQL aggregates) equal what the pass over all rows gives, after accepts, rejects,
    relabels, a merge, a split and a deletion."""
    from django.contrib.auth.models import Group

    from annotations.benchmarks.review_transcript import build_review_transcript
    from annotations.models import Entity, Span
    from annotations.selectors import (
        review_answer_rows,
        review_entities,
        review_label_counts,
        review_minimap_cells,
        review_pages,
        review_progress,
        review_progress_counts,
        review_span_rows,
        review_utterances,
    )
    from annotations.services import review as rs
    from anonreview import roles
    from tests.factories import make_user

    user = make_user("aggregates")
    user.groups.add(Group.objects.get_or_create(name=roles.ANNOTATOR)[0])
    t = build_review_transcript(seed=5, words=2500, max_spans=250, assignees=[user])
    spans = list(Span.objects.filter(transcript=t).order_by("start"))
    for s in spans[::7]:
        rs.span_accept(span=s.pk, actor=user, version=s.version)
    for s in spans[3::11]:
        s.refresh_from_db()
        rs.span_reject(span=s.pk, actor=user, version=s.version)
    for s, label in zip(spans[5::13], ["LOCATION", "DATE", "ORGANIZATION"] * 9, strict=False):
        s.refresh_from_db()
        if s.label != label:
            rs.span_relabel(span=s.pk, actor=user, version=s.version, label=label)
    persons = [e for e in Entity.objects.filter(transcript=t, label="PERSON") if e.spans.exists()]
    rs.entity_merge(transcript=t, source=persons[0].ref, target=persons[1].ref, actor=user)
    big = next(e for e in persons[2:] if e.spans.count() > 1)
    first = big.spans.order_by("start").first()
    rs.entity_split(transcript=t, entity=big.pk, spans=[first.pk], actor=user)
    last = Span.objects.filter(transcript=t).order_by("-start").first()
    rs.span_delete(span=last.pk, actor=user, version=last.version)

    rows = review_span_rows(transcript=t)
    assert review_progress_counts(transcript=t) == review_progress(rows=rows)
    python = {g.label: (g.count, g.mentions, g.undecided) for g in review_entities(rows=rows)}
    sql = {
        g.label: (g.count, g.mentions, g.undecided)
        for g in review_label_counts(transcript=t, labels=set(python) | {"TIME"})
    }
    assert sql == python and len(python) >= 3
    everything = review_minimap(rows=rows, pages=t.page_count)
    cells = review_minimap_cells(transcript=t, pages=[c.page for c in everything])
    assert cells == everything
    # The rows an answer reads carry the same pages as the full read.
    pages = review_pages(transcript=t)
    utterances = review_utterances(transcript=t, containing={spans[40].start})
    some = review_answer_rows(
        transcript=t, spans={spans[10].pk}, entities={persons[1].pk}, utterances=utterances,
        pages=pages,
    )  # fmt: skip
    by_id = {r.id: r for r in rows}
    assert some and all(r == by_id[r.id] for r in some)
    assert {r.id for r in rows if r.entity_id == persons[1].pk} <= {r.id for r in some}
