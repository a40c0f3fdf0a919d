"""Undo (annotations/services/review/undo.py): walks back the actor's own history as deep
as it goes, restoring spans *and their versions*; a real conflict names the other user."""

import pytest

from annotations.models import Entity, Span
from annotations.services import review as rs
from anonreview.core.models import AuditEvent
from tests.test_review_services import at, make_review_transcript, span_at


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def rt(annotator):
    return make_review_transcript(assignees=[annotator])


def state(transcript) -> dict:
    """Every span with everything undo must restore, and the groups that have mentions."""
    spans = {
        s.pk: (s.start, s.end, s.label, s.status, s.entity_id, s.version)
        for s in Span.objects.filter(transcript=transcript)
    }
    groups = set(
        Entity.objects.filter(transcript=transcript, spans__isnull=False).values_list(
            "pk", flat=True
        )
    )
    return {"spans": spans, "groups": groups}


def test_accept_reject_undo_undo_on_one_span_goes_back_to_the_suggestion(rt, annotator):
    span = span_at(rt, "Calvin")
    rs.span_accept(span=span.pk, actor=annotator, version=span.version)
    rs.span_reject(span=span.pk, actor=annotator, version=span.version + 1)
    rs.review_undo(transcript=rt, actor=annotator)
    assert Span.objects.get(pk=span.pk).status == "accepted"
    rs.review_undo(transcript=rt, actor=annotator)  # used to say "someone changed these spans"
    restored = Span.objects.get(pk=span.pk)
    assert (restored.status, restored.version) == ("suggested", span.version)


def test_merge_split_undo_undo_restores_both_groups(rt, annotator):
    dana, quill = span_at(rt, "Dana"), span_at(rt, "Quill", 2)
    dana_group, quill_group = dana.entity_id, quill.entity_id
    rs.entity_merge(transcript=rt, source=dana.entity.ref, target=quill.entity.ref, actor=annotator)
    new = rs.entity_split(transcript=rt, entity=quill_group, spans=[dana.pk], actor=annotator)
    rs.review_undo(transcript=rt, actor=annotator)
    assert span_at(rt, "Dana").entity_id == quill_group
    assert not Entity.objects.filter(pk=new.pk).exists()
    rs.review_undo(transcript=rt, actor=annotator)
    assert span_at(rt, "Dana").entity_id == dana_group


def _mixed_actions(rt, actor):
    """20 actions of every kind, each a callable reading the spans' current versions."""

    def v(needle, nth=0):
        s = span_at(rt, needle, nth)
        return {"span": s.pk, "version": s.version}

    def ref(needle, nth=0):
        return span_at(rt, needle, nth).entity.ref

    morning = at(rt.text, "morning")
    thank = at(rt.text, "thank")
    return [
        lambda: rs.span_accept(actor=actor, **v("Calvin")),
        lambda: rs.span_reject(actor=actor, **v("Calvin")),
        lambda: rs.span_accept(actor=actor, **v("Quill")),
        lambda: rs.span_relabel(actor=actor, label="ORGANIZATION", **v("Fresno")),
        lambda: rs.span_add(
            transcript=rt, actor=actor, start=morning[0], end=morning[1], label="TIME"
        ),
        lambda: rs.entity_merge(
            transcript=rt, source=ref("Dana"), target=ref("Quill", 2), actor=actor
        ),
        lambda: rs.entity_split(
            transcript=rt, entity=ref("Dana"), spans=[span_at(rt, "Dana").pk], actor=actor
        ),
        lambda: rs.span_accept(actor=actor, **v("Dana")),
        lambda: rs.span_reject(actor=actor, **v("Alden")),
        lambda: rs.span_resize(actor=actor, edge="left", **v("May 13, 1980")),
        lambda: rs.span_delete(actor=actor, **v("Fresno", 1)),
        lambda: rs.span_apply_to_all(actor=actor, **v("Fresno")),
        lambda: rs.spans_accept_all(transcript=rt, actor=actor, label="PERSON"),
        lambda: rs.span_relabel(actor=actor, label="PERSON", **v("Calvin")),
        lambda: rs.span_add(transcript=rt, actor=actor, start=thank[0], end=thank[1], label="NRP"),
        lambda: rs.span_reject(actor=actor, **v("thank")),
        lambda: rs.span_accept(actor=actor, **v("thank")),
        lambda: rs.entity_merge(
            transcript=rt, source=ref("Calvin"), target=ref("Quill"), actor=actor
        ),
        lambda: rs.span_reject(actor=actor, **v("Quill", 3)),
        lambda: rs.span_relabel(actor=actor, label="LOCATION", **v("morning")),
    ]


def test_undo_walks_back_twenty_mixed_actions_to_each_earlier_state(rt, annotator):
    states = [state(rt)]
    for action in _mixed_actions(rt, annotator):
        action()
        states.append(state(rt))
    assert len(states) == 21
    for expected in reversed(states[:-1]):
        rs.review_undo(transcript=rt, actor=annotator)
        assert state(rt) == expected
    with pytest.raises(rs.ReviewError, match="Nothing to undo"):
        rs.review_undo(transcript=rt, actor=annotator)


def test_undo_conflict_names_the_other_user(rt, annotator, other_annotator):
    rt.assignees.add(other_annotator)
    span = span_at(rt, "Calvin")
    rs.span_accept(span=span.pk, actor=annotator, version=span.version)
    rs.span_reject(span=span.pk, actor=other_annotator, version=span.version + 1)
    with pytest.raises(rs.SpanConflict, match="ann2 changed these spans"):
        rs.review_undo(transcript=rt, actor=annotator)
    assert Span.objects.get(pk=span.pk).status == "rejected"


# --- Undo costs what the action cost, at any size ----------------


def _span_updates(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("UPDATE")]


def _undo_cost(annotator, *, spans: int, action: str):
    """Queries and the text of the span UPDATEs of ``action`` on ``spans`` suggestions and
    of its undo."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.test_review_bulk import make_bulk_transcript

    transcript = make_bulk_transcript(assignees=[annotator], spans=spans, per_line=5)
    with CaptureQueriesContext(connection) as forward:
        if action == "accept_all":
            rs.spans_accept_all(transcript=transcript, actor=annotator, label="PERSON")
        else:
            rs.spans_reject_form(
                transcript=transcript, actor=annotator, label="PERSON", form="Velix"
            )
    with CaptureQueriesContext(connection) as undo:
        rs.review_undo(transcript=transcript, actor=annotator)
    assert not Span.objects.filter(transcript=transcript).exclude(status="suggested").exists()
    return forward.captured_queries, undo.captured_queries


@pytest.mark.parametrize("action", ["accept_all", "reject_form"])
def test_undo_of_ten_times_the_spans_issues_as_many_queries_and_no_longer_statements(
    annotator, action
):
    small_forward, small_undo = _undo_cost(annotator, spans=40, action=action)
    big_forward, big_undo = _undo_cost(annotator, spans=400, action=action)
    assert len(big_undo) == len(small_undo) <= len(small_forward) + 12
    # The undo's UPDATEs say no more than the action's did (not one CASE branch per span
    # and field, as bulk_update wrote them: 20× the decision's time at 3,000 spans).
    forward_sql = sum(len(sql) for sql in _span_updates(big_forward))
    undo_sql = sum(len(sql) for sql in _span_updates(big_undo))
    assert undo_sql <= 3 * forward_sql, (undo_sql, forward_sql)


def test_undo_of_a_bulk_decision_restores_every_version_and_reviewer(annotator, other_annotator):
    from tests.test_review_bulk import make_bulk_transcript

    transcript = make_bulk_transcript(assignees=[annotator, other_annotator], spans=100)
    first = list(Span.objects.filter(transcript=transcript).order_by("pk")[:10])
    for span in first:  # another reviewer's earlier decisions: other versions and reviewer
        rs.span_accept(span=span.pk, actor=other_annotator, version=span.version)
    before = state(transcript)
    reviewers = dict(Span.objects.filter(transcript=transcript).values_list("pk", "reviewer_id"))
    rs.spans_reject_form(transcript=transcript, actor=annotator, label="PERSON", form="Velix")
    rs.spans_accept_all(transcript=transcript, actor=annotator, label="PERSON")
    rs.review_undo(transcript=transcript, actor=annotator)
    rs.review_undo(transcript=transcript, actor=annotator)
    assert state(transcript) == before
    assert (
        dict(Span.objects.filter(transcript=transcript).values_list("pk", "reviewer_id"))
        == reviewers
    )
    undo = AuditEvent.objects.filter(event_type="review.undo").order_by("-id").first()
    assert undo.after["action"] == "reject_form"
    assert {s["status"] for s in undo.after["spans"]} <= {"suggested", "accepted"}
