"""Review services: every action, permissions, optimistic locking, audit and undo."""

import pytest

from annotations.models import Entity, Span
from annotations.services import review as rs
from anonreview.core.models import AuditEvent
from tests.factories import make_transcript, make_user
from transcripts.models import Transcript

TEXT = (
    "PRESIDING COMMISSIONER ALDEN: Good morning, Mr. Quill. Is your name Calvin Quill?\n"
    "INMATE QUILL: Yes. Q-U-I-L-L. I lived in Fresno with Dana Quill.\n"
    "PRESIDING COMMISSIONER ALDEN: You were in Fresno on May 13, 1980, Mr. Quill?\n"
    "INMATE QUILL: Yes, Fresno. Commissioner Alden, thank you."
)


def at(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return start, start + len(needle)


def make_review_transcript(*, assignees=(), state=Transcript.State.READY, text=TEXT):
    """A synthetic transcript with detector suggestions and reference groups."""
    transcript = make_transcript(text, assignees=assignees, state=state)
    suggestions = [
        ("Quill", 0, "PERSON", 0.91),
        ("Calvin", 0, "PERSON", 0.88),
        ("Quill", 1, "PERSON", 0.86),
        ("Fresno", 0, "LOCATION", 0.72),
        ("Dana", 0, "PERSON", 0.64),
        ("Quill", 2, "PERSON", 0.66),
        ("Fresno", 1, "LOCATION", 0.70),
        ("May 13, 1980", 0, "DATE", 0.95),
        ("Quill", 3, "PERSON", 0.90),
        ("Alden", 0, "PERSON", 0.55),
    ]
    for needle, nth, label, score in suggestions:
        start, end = at(text, needle, nth)
        Span.objects.create(
            transcript=transcript, start=start, end=end, label=label, score=score,
            provenance=[{"detector": "spacy", "score": score}, {"detector": "presidio", "score": 0.5}],
        )  # fmt: skip
    rs.review_assign_entities(transcript=transcript)
    return transcript


def span_at(transcript, needle, nth=0) -> Span:
    start, end = at(transcript.text, needle, nth)
    return Span.objects.get(transcript=transcript, start=start, end=end)


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    """Subtypes from gazetteers and rules only: no sentence-encoder load in these tests."""
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def rt(annotator):
    return make_review_transcript(assignees=[annotator])


def test_accept_sets_status_bumps_version_and_writes_audit_in_transaction(rt, annotator):
    span = span_at(rt, "Calvin")
    result = rs.span_accept(span=span, actor=annotator, version=span.version)
    assert result.status == Span.Status.ACCEPTED
    assert result.version == span.version + 1
    assert result.reviewer == annotator
    event = AuditEvent.objects.filter(event_type="review.accept").get()
    assert event.actor == annotator and event.span_id == span.pk
    assert event.before["spans"][0]["status"] == "suggested"
    assert event.after["spans"][0]["status"] == "accepted"


def test_first_action_on_ready_transcript_moves_it_to_in_review(rt, annotator):
    assert rt.state == Transcript.State.READY
    rs.span_reject(span=span_at(rt, "Alden"), actor=annotator)
    rt.refresh_from_db()
    assert rt.state == Transcript.State.IN_REVIEW


def test_reject_keeps_the_span_as_rejected(rt, annotator):
    span = rs.span_reject(span=span_at(rt, "Alden"), actor=annotator)
    assert Span.objects.get(pk=span.pk).status == Span.Status.REJECTED


def test_stale_version_raises_conflict_and_changes_nothing(rt, annotator, other_annotator):
    rt.assignees.add(other_annotator)
    span = span_at(rt, "Calvin")
    rs.span_accept(span=span, actor=other_annotator, version=span.version)
    with pytest.raises(rs.SpanConflict, match="changed by ann2"):
        rs.span_reject(span=span, actor=annotator, version=span.version)
    assert Span.objects.get(pk=span.pk).status == Span.Status.ACCEPTED
    assert not AuditEvent.objects.filter(event_type="review.reject").exists()


def test_non_assignee_annotator_is_refused(rt, other_annotator):
    with pytest.raises(rs.ReviewPermissionError):
        rs.span_accept(span=span_at(rt, "Calvin"), actor=other_annotator)
    assert span_at(rt, "Calvin").status == Span.Status.SUGGESTED


def test_lead_may_review_a_transcript_they_are_not_assigned(rt, lead):
    span = rs.span_accept(span=span_at(rt, "Calvin"), actor=lead)
    assert span.status == Span.Status.ACCEPTED


@pytest.mark.parametrize("state", [Transcript.State.APPROVED, Transcript.State.RELEASED])
def test_approved_and_released_transcripts_are_read_only_for_everyone(annotator, lead, state):
    transcript = make_review_transcript(assignees=[annotator], state=state)
    for user in (annotator, lead):
        with pytest.raises(rs.ReviewPermissionError, match="read-only"):
            rs.span_accept(span=span_at(transcript, "Calvin"), actor=user)


def test_returned_transcript_is_read_only_for_annotator_until_resumed(annotator):
    transcript = make_review_transcript(assignees=[annotator], state=Transcript.State.RETURNED)
    with pytest.raises(rs.ReviewPermissionError, match="resume"):
        rs.span_accept(span=span_at(transcript, "Calvin"), actor=annotator)
    rs.review_resume(transcript=transcript, actor=annotator)
    assert transcript.state == Transcript.State.IN_REVIEW
    assert rs.span_accept(span=span_at(transcript, "Calvin"), actor=annotator).status == "accepted"


def test_submitted_transcript_is_read_only_for_annotator_and_lead(annotator, lead):
    """The release rule: a lead who wants a change returns the transcript."""
    transcript = make_review_transcript(assignees=[annotator], state=Transcript.State.SUBMITTED)
    for actor in (annotator, lead):
        with pytest.raises(rs.ReviewPermissionError):
            rs.span_accept(span=span_at(transcript, "Calvin"), actor=actor)


def test_relabel_moves_span_to_a_group_of_the_new_label(rt, annotator):
    span = span_at(rt, "Fresno", 1)
    [result] = rs.span_relabel(
        span=span, actor=annotator, label="ORGANIZATION", version=span.version
    )
    assert result.label == "ORGANIZATION"
    assert result.entity is not None and result.entity.label == "ORGANIZATION"
    assert result.status == Span.Status.ACCEPTED


def test_relabel_to_person_splits_into_name_parts(annotator):
    text = "INMATE QUILL: I met John Doe there."
    transcript = make_transcript(text, assignees=[annotator])
    start, end = at(text, "John Doe")
    span = Span.objects.create(transcript=transcript, start=start, end=end, label="ORGANIZATION")
    spans = rs.span_relabel(span=span, actor=annotator, label="PERSON")
    assert sorted(text[s.start : s.end] for s in spans) == ["Doe", "John"]
    assert all(s.entity and s.entity.label == "PERSON" for s in spans)


def test_resize_extends_and_shrinks_by_whole_words(rt, annotator):
    span = span_at(rt, "Fresno", 0)  # "I lived in Fresno with Dana Quill."
    text = rt.text
    grown = rs.span_resize(span=span, actor=annotator, edge="left", grow=True)
    assert text[grown.start : grown.end] == "in Fresno"
    shrunk = rs.span_resize(span=grown.pk, actor=annotator, edge="left", grow=False)
    assert text[shrunk.start : shrunk.end] == "Fresno"
    with pytest.raises(rs.ReviewError, match="overlaps"):
        rs.span_resize(span=shrunk.pk, actor=annotator, edge="right", grow=True)  # "with"
        rs.span_resize(span=shrunk.pk, actor=annotator, edge="right", grow=True)  # "Dana"


def test_resize_to_offsets_snaps_to_word_boundaries(rt, annotator):
    span = span_at(rt, "Calvin")
    start, _ = at(rt.text, "Calvin")
    resized = rs.span_resize(span=span, actor=annotator, start=start - 3, end=start + 2)
    assert rt.text[resized.start : resized.end] == "name Calvin"


def test_resize_cannot_cross_into_the_next_utterance(rt, annotator):
    span = span_at(rt, "Quill", 3)  # "Mr. Quill?" ends its utterance
    with pytest.raises(rs.ReviewError):
        rs.span_resize(span=span, actor=annotator, end=span.end + 20)


def test_add_person_selection_becomes_name_part_spans(annotator):
    text = "INMATE QUILL: My lawyer is Mr. Ronald Tate Vance."
    transcript = make_transcript(text, assignees=[annotator])
    start, end = at(text, "Mr. Ronald Tate Vance")
    spans = rs.span_add(
        transcript=transcript, actor=annotator, start=start, end=end, label="PERSON"
    )
    assert [text[s.start : s.end] for s in spans] == ["Ronald", "Tate", "Vance"]
    assert {s.status for s in spans} == {Span.Status.ADDED}
    assert all(s.entity_id for s in spans)
    assert AuditEvent.objects.filter(event_type="review.add").count() == 1


def test_add_snaps_a_partial_word_selection_to_the_word(rt, annotator):
    start, end = at(rt.text, "morning")
    [span] = rs.span_add(transcript=rt, actor=annotator, start=start + 2, end=end - 2, label="TIME")
    assert rt.text[span.start : span.end] == "morning"


def test_add_refuses_a_selection_that_is_already_annotated(rt, annotator):
    start, end = at(rt.text, "Calvin")
    with pytest.raises(rs.ReviewError, match="already annotated"):
        rs.span_add(transcript=rt, actor=annotator, start=start, end=end, label="PERSON")


def test_delete_removes_the_span_and_undo_restores_it(rt, annotator):
    span = span_at(rt, "Dana")
    rs.span_delete(span=span, actor=annotator, version=span.version)
    assert not Span.objects.filter(pk=span.pk).exists()
    rs.review_undo(transcript=rt, actor=annotator)
    restored = Span.objects.get(pk=span.pk)
    assert (restored.start, restored.end, restored.label) == (span.start, span.end, span.label)


def test_merge_joins_two_groups_and_undo_separates_them(rt, annotator):
    quill = span_at(rt, "Quill", 2).entity
    dana = span_at(rt, "Dana").entity
    assert quill.pk != dana.pk
    rs.entity_merge(transcript=rt, source=dana.ref, target=quill.ref, actor=annotator)
    assert span_at(rt, "Dana").entity_id == quill.pk
    rs.review_undo(transcript=rt, actor=annotator)
    assert span_at(rt, "Dana").entity_id == dana.pk


def test_merge_refuses_groups_of_different_labels(rt, annotator):
    person = span_at(rt, "Dana").entity
    place = span_at(rt, "Fresno").entity
    with pytest.raises(rs.ReviewError, match="Cannot merge"):
        rs.entity_merge(transcript=rt, source=person, target=place, actor=annotator)


def test_split_moves_a_mention_into_a_new_group(rt, annotator):
    span = span_at(rt, "Quill", 3)
    old = span.entity
    new = rs.entity_split(transcript=rt, entity=old, spans=[span], actor=annotator)
    assert new.ref != old.ref and new.label == "PERSON"
    assert span_at(rt, "Quill", 3).entity_id == new.pk
    assert Span.objects.filter(entity=old).exists()
    rs.review_undo(transcript=rt, actor=annotator)
    assert span_at(rt, "Quill", 3).entity_id == old.pk
    assert not Entity.objects.filter(pk=new.pk).exists()


def test_apply_to_all_creates_reviewable_suggestions_not_decisions(annotator):
    text = "INMATE QUILL: Tulare. I grew up in Tulare.\nATTORNEY VANCE: Tulare County, Tulare."
    transcript = make_transcript(text, assignees=[annotator])
    start, end = at(text, "Tulare")
    [span] = rs.span_add(
        transcript=transcript, actor=annotator, start=start, end=end, label="LOCATION"
    )
    created = rs.span_apply_to_all(span=span, actor=annotator)
    assert len(created) == 3
    assert {s.status for s in created} == {Span.Status.SUGGESTED}
    assert all(s.provenance[0]["detector"] == rs.OCCURRENCE for s in created)
    assert {s.entity_id for s in Span.objects.filter(pk__in=[c.pk for c in created])} == {
        span.entity_id
    }
    rs.review_undo(transcript=transcript, actor=annotator)
    assert Span.objects.filter(transcript=transcript).count() == 1


def test_accept_all_of_a_group_accepts_only_its_suggestions(rt, annotator):
    quill = span_at(rt, "Quill", 2).entity
    rs.span_reject(span=span_at(rt, "Quill", 3), actor=annotator)
    accepted = rs.spans_accept_all(transcript=rt, actor=annotator, entity=quill.ref)
    statuses = dict(Span.objects.filter(entity=quill).values_list("pk", "status"))
    assert {s.pk for s in accepted} <= set(statuses)
    assert list(statuses.values()).count("rejected") == 1
    assert span_at(rt, "Dana").status == "suggested"


def test_accept_all_of_a_label_and_undo(rt, annotator):
    rs.spans_accept_all(transcript=rt, actor=annotator, label="LOCATION")
    assert set(
        Span.objects.filter(transcript=rt, label="LOCATION").values_list("status", flat=True)
    ) == {"accepted"}
    rs.review_undo(transcript=rt, actor=annotator)
    assert set(
        Span.objects.filter(transcript=rt, label="LOCATION").values_list("status", flat=True)
    ) == {"suggested"}


def test_undo_goes_back_at_least_ten_actions_in_order(rt, annotator):
    spans = list(Span.objects.filter(transcript=rt).order_by("start"))
    assert len(spans) >= 10
    for span in spans[:10]:
        rs.span_accept(span=span, actor=annotator)
    for _ in range(10):
        rs.review_undo(transcript=rt, actor=annotator)
    assert set(Span.objects.filter(transcript=rt).values_list("status", flat=True)) == {"suggested"}
    with pytest.raises(rs.ReviewError, match="Nothing to undo"):
        rs.review_undo(transcript=rt, actor=annotator)


def test_undo_is_per_user(rt, annotator, other_annotator):
    rt.assignees.add(other_annotator)
    rs.span_accept(span=span_at(rt, "Calvin"), actor=annotator)
    with pytest.raises(rs.ReviewError, match="Nothing to undo"):
        rs.review_undo(transcript=rt, actor=other_annotator)


def test_undo_refuses_when_someone_changed_the_span_since(rt, annotator, other_annotator):
    rt.assignees.add(other_annotator)
    span = span_at(rt, "Calvin")
    rs.span_accept(span=span, actor=annotator)
    rs.span_reject(span=span.pk, actor=other_annotator)
    with pytest.raises(rs.SpanConflict):
        rs.review_undo(transcript=rt, actor=annotator)
    assert Span.objects.get(pk=span.pk).status == "rejected"


def test_every_action_writes_one_audit_event_with_before_and_after(rt, annotator):
    before = AuditEvent.objects.filter(event_type__startswith="review.").count()
    span = span_at(rt, "Calvin")
    rs.span_accept(span=span, actor=annotator)
    rs.span_relabel(span=span.pk, actor=annotator, label="ORGANIZATION")
    rs.review_undo(transcript=rt, actor=annotator)
    events = AuditEvent.objects.filter(event_type__startswith="review.").order_by("id")[before:]
    assert [e.event_type for e in events] == ["review.accept", "review.relabel", "review.undo"]
    assert all(e.actor_username == "ann" for e in events)


def test_snap_and_word_step_helpers():
    text = "Hello, Mr. Quill-Smith went home."
    s, e = rs.snap_to_words(text, text.index("ll-S"), text.index("mith") + 2)
    assert text[s:e] == "Quill-Smith"
    assert rs.word_step(text, 0, forward=True) == len("Hello")
    assert rs.occurrences("Fresno, Fresnos and Fresno.", "Fresno") == [(0, 6), (20, 26)]


def test_anonymous_user_is_refused(rt):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(rs.ReviewPermissionError):
        rs.span_accept(span=span_at(rt, "Calvin"), actor=AnonymousUser())


def test_admin_may_review(rt):
    admin = make_user("root", role="admin", is_superuser=True)
    assert rs.span_accept(span=span_at(rt, "Calvin"), actor=admin).status == "accepted"


SPELLING = (
    "THE WITNESS: Trinn. T as in Tom, R as in Robert, I as in Ida, N as in Nancy.\nQ: Thank you."
)


def test_a_drag_over_the_pieces_of_a_spelling_swallows_them_in_one_undo_step(annotator):
    transcript = make_transcript(SPELLING, assignees=[annotator])
    pieces = []
    for needle, label in (
        ("T as in Tom", "SPELLED_OUT_ITEM"),
        ("Robert", "PERSON"),
        ("I as in Ida", "SPELLED_OUT_ITEM"),
    ):
        start, end = at(SPELLING, needle)
        pieces.append(Span.objects.create(transcript=transcript, start=start, end=end, label=label))
    first = pieces[0]
    start, _ = at(SPELLING, "T as in Tom")
    _, end = at(SPELLING, "N as in Nancy")
    whole = rs.span_resize(
        span=first.pk, actor=annotator, version=first.version, start=start, end=end
    )
    assert (
        SPELLING[whole.start : whole.end]
        == "T as in Tom, R as in Robert, I as in Ida, N as in Nancy"
    )
    assert list(Span.objects.filter(transcript=transcript).values_list("pk", flat=True)) == [
        first.pk
    ]
    assert AuditEvent.objects.filter(event_type="review.resize").count() == 1
    rs.review_undo(transcript=transcript, actor=annotator)
    restored = Span.objects.filter(transcript=transcript).order_by("start")
    assert [(SPELLING[s.start : s.end], s.label) for s in restored] == [
        ("T as in Tom", "SPELLED_OUT_ITEM"),
        ("Robert", "PERSON"),
        ("I as in Ida", "SPELLED_OUT_ITEM"),
    ]


def test_a_resize_that_cuts_into_a_span_is_still_refused(annotator):
    transcript = make_transcript(SPELLING, assignees=[annotator])
    start, end = at(SPELLING, "T as in Tom")
    first = Span.objects.create(
        transcript=transcript, start=start, end=end, label="SPELLED_OUT_ITEM"
    )
    s2, e2 = at(SPELLING, "Robert, I")
    Span.objects.create(transcript=transcript, start=s2, end=e2, label="PERSON")
    with pytest.raises(rs.ReviewError, match="overlaps"):
        rs.span_resize(span=first.pk, actor=annotator, start=start, end=at(SPELLING, "Robert")[1])


def _spelling_pieces(transcript):
    for needle in ("T as in Tom", "R as in Robert", "N as in Nancy"):
        start, end = at(SPELLING, needle)
        Span.objects.create(transcript=transcript, start=start, end=end, label="SPELLED_OUT_ITEM")
    return Span.objects.filter(transcript=transcript).order_by("start")


def test_right_edge_steps_take_the_next_piece_of_a_spelling_whole(annotator):
    transcript = make_transcript(SPELLING, assignees=[annotator])
    first = _spelling_pieces(transcript)[0]
    span = rs.span_resize(span=first.pk, actor=annotator, edge="right", grow=True)
    assert SPELLING[span.start : span.end] == "T as in Tom, R as in Robert"
    span = rs.span_resize(span=span.pk, actor=annotator, edge="right", grow=True)  # "I"
    span = rs.span_resize(span=span.pk, actor=annotator, edge="right", grow=True)  # "as"
    span = rs.span_resize(span=span.pk, actor=annotator, edge="right", grow=True)  # "in"
    span = rs.span_resize(span=span.pk, actor=annotator, edge="right", grow=True)  # "Ida"
    span = rs.span_resize(span=span.pk, actor=annotator, edge="right", grow=True)  # N…
    assert SPELLING[span.start : span.end] == (
        "T as in Tom, R as in Robert, I as in Ida, N as in Nancy"
    )
    assert Span.objects.filter(transcript=transcript).count() == 1


def test_a_selection_over_a_spellings_pieces_adds_one_span_and_one_undo_restores_them(
    annotator,
):
    transcript = make_transcript(SPELLING, assignees=[annotator])
    _spelling_pieces(transcript)
    start, _ = at(SPELLING, "T as in Tom")
    _, end = at(SPELLING, "N as in Nancy")
    (whole,) = rs.span_add(
        transcript=transcript, actor=annotator, start=start, end=end, label="SPELLED_OUT_ITEM"
    )
    assert SPELLING[whole.start : whole.end].endswith("N as in Nancy")
    assert Span.objects.filter(transcript=transcript).count() == 1
    rs.review_undo(transcript=transcript, actor=annotator)
    restored = Span.objects.filter(transcript=transcript).order_by("start")
    assert [SPELLING[s.start : s.end] for s in restored] == [
        "T as in Tom",
        "R as in Robert",
        "N as in Nancy",
    ]
