import pytest

from annotations.models import Entity, Span
from annotations.services.entities import entities_assign
from annotations.services.pseudonymization import transcript_pseudonymize
from anonreview.core.models import AuditEvent
from tests.factories import make_transcript

pytestmark = pytest.mark.django_db


def add(t, needle, label, nth=1, status="suggested", **fields):
    start = -1
    for _ in range(nth):
        start = t.text.index(needle, start + 1)
    return Span.objects.create(
        transcript=t, start=start, end=start + len(needle), label=label, status=status, **fields
    )


def refs(t):
    return [(s.label, t.text[s.start : s.end], s.entity.ref) for s in t.spans.order_by("start")]


def test_name_parts_case_and_possessive_share_one_entity():
    t = make_transcript("John Doe met DOE. Doe's file.")
    add(t, "John", "PERSON")
    add(t, "Doe", "PERSON")
    add(t, "DOE", "PERSON")
    add(t, "Doe's", "PERSON")
    entities_assign(transcript=t)
    assert refs(t) == [
        ("PERSON", "John", "PERSON_1"),
        ("PERSON", "Doe", "PERSON_2"),
        ("PERSON", "DOE", "PERSON_2"),
        ("PERSON", "Doe's", "PERSON_2"),
    ]
    assert Entity.objects.filter(transcript=t).count() == 2
    assert Entity.objects.get(transcript=t, ref="PERSON_2").key == "doe"


def test_spelled_name_before_plain_name_and_ids_and_subtypes():
    t = make_transcript(
        "Q-U-I-L-L. Jonah Quill, Victor 12345, V-1-2-3-4-5, in Texas at Folsom State Prison."
    )
    add(t, "Q-U-I-L-L", "SPELLED_NAME")
    add(t, "Jonah", "PERSON")
    add(t, "Quill", "PERSON")
    add(t, "Victor 12345", "CDCR_ID")
    add(t, "V-1-2-3-4-5", "CDCR_ID")
    add(t, "Texas", "LOCATION")
    add(t, "Folsom State Prison", "ORGANIZATION")
    entities_assign(transcript=t)
    assert [r[2] for r in refs(t)] == [
        "SPELLED_NAME_PERSON_1",
        "PERSON_2",
        "PERSON_1",
        "ID_1",
        "ID_1",
        "STATE_1",
        "PRISON_1",
    ]


def test_assign_is_idempotent_and_keeps_reviewer_merges():
    t = make_transcript("Quill and Quil and Alden.")
    a = add(t, "Quill", "PERSON")
    b = add(t, "Quil", "PERSON", nth=2)
    entities_assign(transcript=t)
    assert a.__class__.objects.get(pk=b.pk).entity.ref == "PERSON_2"
    # A reviewer merges the misspelling into PERSON_1.
    Span.objects.filter(pk=b.pk).update(entity=Entity.objects.get(transcript=t, ref="PERSON_1"))
    add(t, "Alden", "PERSON")
    entities_assign(transcript=t)
    entities_assign(transcript=t)
    assert [r[2] for r in refs(t)] == ["PERSON_1", "PERSON_1", "PERSON_3"]
    assert transcript_pseudonymize(transcript=t).text == "[PERSON_1] and [PERSON_1] and [PERSON_3]."


def test_propagated_misspelling_joins_the_original_group():
    t = make_transcript("Mr. Quill and Mr. Quil.")
    add(t, "Quill", "PERSON")
    add(
        t,
        "Quil",
        "PERSON",
        nth=2,
        provenance=[{"detector": "propagation", "score": 0.8, "explanation": "similar to 'Quill'"}],
    )
    entities_assign(transcript=t)
    assert [r[2] for r in refs(t)] == ["PERSON_1", "PERSON_1"]


def test_rejected_spans_get_no_entity_and_calls_are_cheap(django_assert_max_num_queries):
    t = make_transcript(" ".join(f"Name{i}" for i in range(60)))
    for i in range(60):
        add(t, f"Name{i}", "PERSON", status="rejected" if i == 0 else "suggested")
    with django_assert_max_num_queries(12):
        entities_assign(transcript=t)
    assert Span.objects.get(transcript=t, start=0).entity is None
    assert Span.objects.filter(transcript=t, entity__isnull=False).count() == 59
    assert AuditEvent.objects.filter(transcript=t, event_type="entities_assigned").count() == 1


def test_corpus_scope_gives_the_same_person_the_same_ref(settings):
    settings.PSEUDONYM_SCOPE = "corpus"
    first = make_transcript("Alden and Quill.")
    add(first, "Alden", "PERSON")
    add(first, "Quill", "PERSON")
    entities_assign(transcript=first)
    second = make_transcript("Reyes and Quill.")
    add(second, "Reyes", "PERSON")
    add(second, "Quill", "PERSON")
    entities_assign(transcript=second)
    assert [r[2] for r in refs(second)] == ["PERSON_3", "PERSON_2"]


def test_transcript_pseudonymize_maps_span_ids_and_release_uses_reviewed_spans_only():
    t = make_transcript("John Doe met Ann.")
    john = add(t, "John", "PERSON", status="accepted")
    doe = add(t, "Doe", "PERSON", status="added")
    add(t, "Ann", "PERSON", status="suggested")
    entities_assign(transcript=t)
    review = transcript_pseudonymize(transcript=t)
    assert review.text == "[PERSON_1] [PERSON_2] met [PERSON_3]."
    assert review.by_span_id()[john.pk] == "[PERSON_1]"
    assert review.by_span_id()[doe.pk] == "[PERSON_2]"
    release = transcript_pseudonymize(transcript=t, include_suggested=False)
    assert release.text == "[PERSON_1] [PERSON_2] met Ann."


def test_propagated_misspelling_without_a_named_original_joins_the_closest_name():
    t = make_transcript("Mr. Weatherby and Mr. Wetherby and Mr. Whitley.")
    add(t, "Weatherby", "PERSON", status="accepted")
    add(t, "Wetherby", "PERSON", provenance=[{"detector": "propagation", "score": 0.7}])
    add(t, "Whitley", "PERSON", provenance=[{"detector": "propagation", "score": 0.7}])
    entities_assign(transcript=t)
    assert [r[2] for r in refs(t)] == ["PERSON_1", "PERSON_1", "PERSON_2"]


def test_surrogates_are_stable_per_transcript_and_shared_in_corpus_scope(settings):
    first = make_transcript("Mr. Quill spoke.")
    second = make_transcript("Then Mr. Quill left.")
    for t in (first, second):
        add(t, "Quill", "PERSON", status="accepted")
        entities_assign(transcript=t)
    one = transcript_pseudonymize(transcript=first, strategy="surrogate").text
    assert one == transcript_pseudonymize(transcript=first, strategy="surrogate").text
    assert "Quill" not in one
    settings.PSEUDONYM_SCOPE = "corpus"
    a = transcript_pseudonymize(transcript=first, strategy="surrogate").text.split()[1]
    b = transcript_pseudonymize(transcript=second, strategy="surrogate").text.split()[2]
    assert a == b


def test_new_entities_carry_their_tag_as_pseudonym():
    t = make_transcript("Quill on May 13, 2012.")
    add(t, "Quill", "PERSON")
    add(t, "May 13, 2012", "DATE")
    entities_assign(transcript=t)
    assert dict(Entity.objects.filter(transcript=t).values_list("ref", "pseudonym")) == {
        "PERSON_1": "[PERSON_1]",
        "DATE_1": "[MONTH] [DAY], [YEAR]",
    }


def test_assign_given_spans_keys_only_those_against_existing_groups(
    django_assert_max_num_queries,
):
    t = make_transcript("John Doe met Ann Roe in Fresno. D-O-E said so. Later Roe left Reno.")
    add(t, "John", "PERSON")
    add(t, "Doe", "PERSON")
    add(t, "Fresno", "LOCATION")
    entities_assign(transcript=t)
    other = add(t, "Ann", "PERSON")  # not handed over: stays without a group
    spelled = add(t, "D-O-E", "SPELLED_NAME", status="added")
    reno = add(t, "Reno", "LOCATION", status="added")
    with django_assert_max_num_queries(8):
        entities_assign(transcript=t, spans=[reno, spelled])
    spelled.refresh_from_db()
    reno.refresh_from_db()
    other.refresh_from_db()
    assert spelled.entity.ref == "SPELLED_NAME_PERSON_2"  # linked to the existing Doe
    assert reno.entity.ref == "CITY_2"  # the next number after Fresno's CITY_1
    assert other.entity is None


def test_a_misspelling_joins_the_group_its_provenance_names_not_the_closest_one():
    # "Hanson" is closer to "Hansen" than "Hanssen" is, but propagation copied "Hanssen".
    t = make_transcript("Hansen and Hanssen met. Later Hanson came.")
    add(t, "Hansen", "PERSON")
    add(t, "Hanssen", "PERSON")
    add(
        t,
        "Hanson",
        "PERSON",
        provenance=[{"detector": "propagation", "score": 0.7, "original": "hanssen"}],
    )
    entities_assign(transcript=t)
    assert [r[2] for r in refs(t)] == ["PERSON_1", "PERSON_2", "PERSON_2"]
