"""What a review action touched is reported by the services, not read back from the
audit log: the collector holds exactly the spans and groups of the event it wrote."""

import pytest

from annotations.models import Span
from annotations.services import review as rs
from anonreview.core.models import AuditEvent
from tests.factories import make_user
from tests.test_review_services import make_review_transcript, span_at


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def _from_event(event: AuditEvent) -> rs.Touched:
    expected = rs.Touched()
    expected.add_sides(event.before, event.after)
    return expected


def _actions(transcript, user):
    quill = span_at(transcript, "Quill")
    fresno = span_at(transcript, "Fresno")
    alden = span_at(transcript, "Alden")
    dana = span_at(transcript, "Dana")
    start = transcript.text.index("Good morning")
    return [
        lambda: rs.span_accept(span=quill, actor=user),
        lambda: rs.span_reject(span=fresno, actor=user),
        lambda: rs.span_relabel(span=dana, actor=user, label="LOCATION"),
        lambda: rs.span_resize(span=alden, actor=user, edge="left"),
        lambda: rs.span_add(
            transcript=transcript, actor=user, start=start, end=start + 4, label="ORGANIZATION"
        ),  # fmt: skip
        lambda: rs.span_flag(span=quill, actor=user, flagged=True, note="check"),
        lambda: rs.spans_accept_all(transcript=transcript, actor=user, label="PERSON"),
        lambda: rs.review_undo(transcript=transcript, actor=user),
        lambda: rs.span_delete(span=span_at(transcript, "May 13, 1980"), actor=user),
    ]


@pytest.mark.django_db
def test_review_touched_holds_what_each_action_wrote_to_its_audit_event():
    user = make_user("touch", role="annotator")
    transcript = make_review_transcript(assignees=[user])
    for action in _actions(transcript, user):
        with rs.review_touched() as touched:
            action()
        event = AuditEvent.objects.order_by("-pk").first()
        assert touched == _from_event(event)
        assert touched.spans and touched.offsets and touched.labels


@pytest.mark.django_db
def test_review_touched_reports_merge_and_split_groups():
    user = make_user("touch", role="annotator")
    transcript = make_review_transcript(assignees=[user])
    quill, calvin = span_at(transcript, "Quill"), span_at(transcript, "Calvin")
    with rs.review_touched() as touched:
        target = rs.entity_merge(
            transcript=transcript, source=calvin.entity.ref, target=quill.entity.ref, actor=user
        )
    assert target.pk in touched.entities and calvin.pk in touched.spans
    with rs.review_touched() as touched:
        new = rs.entity_split(transcript=transcript, entity=target, spans=[calvin.pk], actor=user)
    assert {new.pk, target.pk} <= touched.entities
    assert touched.spans == {calvin.pk}


@pytest.mark.django_db
def test_review_touched_collects_only_inside_its_block():
    user = make_user("touch", role="annotator")
    transcript = make_review_transcript(assignees=[user])
    with rs.review_touched() as touched:
        pass
    rs.span_accept(span=span_at(transcript, "Quill"), actor=user)
    assert touched == rs.Touched()
    with rs.review_touched() as outer:
        with rs.review_touched() as inner:
            rs.span_reject(span=span_at(transcript, "Fresno"), actor=user)
    assert inner.spans == {span_at(transcript, "Fresno").pk}
    assert outer == rs.Touched()
    assert Span.objects.filter(status=Span.Status.REJECTED).count() == 1
