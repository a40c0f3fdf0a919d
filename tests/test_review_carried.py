"""Confirming carried proposals (``annotations.services.review.carried``): one input for
every carried proposal of a label, or for one form; the person's decision, audited, one
undo step, bounded queries at any size; refused on a submitted transcript."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations.models import Span
from annotations.services import workflow
from annotations.services.review import (
    ReviewError,
    ReviewPermissionError,
    review_undo,
    spans_confirm_carried,
)
from anonreview.core.models import AuditEvent
from tests.factories import make_suggestion, make_transcript
from transcripts.models import Transcript

pytestmark = pytest.mark.django_db


def proposed(t, word: str, label: str, decision: str, to: str = "") -> list[Span]:
    """A suggestion of ``label`` at every ``word`` of ``t`` with a carried proposal."""
    out = []
    start = 0
    while (start := t.text.find(word, start)) >= 0:
        span = make_suggestion(t, start, start + len(word), label)
        entry = {"detector": "carried", "score": 1.0, "decision": decision,
                 "label": to or label, "why": f"{decision} in 3 approved hearings"}  # fmt: skip
        span.provenance = [*span.provenance, entry]
        span.save(update_fields=["provenance"])
        out.append(span)
        start += len(word)
    return out


@pytest.fixture
def hearing(annotator):
    t = make_transcript(
        "QUILL: The Camry, the Camry and the Dodge. He went to Folsom. Jones came.",
        assignees=[annotator],
    )
    proposed(t, "Camry", "PERSON", "reject")
    proposed(t, "Dodge", "PERSON", "reject")
    proposed(t, "Folsom", "PERSON", "relabel", to="LOCATION")
    make_suggestion(t, t.text.index("Jones"), t.text.index("Jones") + 5, "PERSON")
    workflow.transcript_start_review(transcript=t, actor=annotator)
    return t


def states(t) -> dict[str, tuple[str, str]]:
    return {t.text[s.start : s.end]: (s.status, s.label) for s in Span.objects.filter(transcript=t)}


def test_one_input_confirms_every_carried_proposal_of_a_label(hearing, annotator):
    spans_confirm_carried(transcript=hearing, actor=annotator, label="PERSON")
    assert states(hearing) == {
        "Camry": ("rejected", "PERSON"),
        "Dodge": ("rejected", "PERSON"),
        "Folsom": ("accepted", "LOCATION"),
        "Jones": ("suggested", "PERSON"),  # no proposal: the reviewer's to decide
    }
    assert set(
        Span.objects.filter(transcript=hearing)
        .exclude(status="suggested")
        .values_list("reviewer", flat=True)
    ) == {annotator.pk}
    [event] = AuditEvent.objects.filter(transcript=hearing, event_type="review.confirm_carried")
    assert event.actor == annotator
    assert (event.after["bulk"], event.after["count"], event.after["rejected"]) == ("label", 4, 3)


def test_one_input_confirms_one_forms_carried_proposals(hearing, annotator):
    spans_confirm_carried(transcript=hearing, actor=annotator, label="PERSON", form="camry")
    assert states(hearing)["Camry"] == ("rejected", "PERSON")
    assert states(hearing)["Dodge"] == ("suggested", "PERSON")
    [event] = AuditEvent.objects.filter(transcript=hearing, event_type="review.confirm_carried")
    assert (event.after["bulk"], event.after["count"]) == ("form", 2)


def test_a_confirmation_is_one_undo_step(hearing, annotator):
    before = states(hearing)
    spans_confirm_carried(transcript=hearing, actor=annotator, label="PERSON")
    review_undo(transcript=hearing, actor=annotator)
    assert states(hearing) == before


def test_nothing_left_to_confirm_is_said(hearing, annotator):
    spans_confirm_carried(transcript=hearing, actor=annotator, label="PERSON")
    with pytest.raises(ReviewError, match="No carried proposal"):
        spans_confirm_carried(transcript=hearing, actor=annotator, label="PERSON")


def test_a_confirmation_on_a_submitted_transcript_is_refused(hearing, annotator):
    Transcript.objects.filter(pk=hearing.pk).update(state=Transcript.State.SUBMITTED)
    hearing.refresh_from_db()
    with pytest.raises(ReviewPermissionError):
        spans_confirm_carried(transcript=hearing, actor=annotator, label="PERSON")
    assert states(hearing)["Camry"] == ("suggested", "PERSON")


def _queries(annotator, n: int) -> int:
    t = make_transcript("QUILL: " + "The Camry. " * n, assignees=[annotator])
    proposed(t, "Camry", "PERSON", "reject")
    workflow.transcript_start_review(transcript=t, actor=annotator)
    with CaptureQueriesContext(connection) as ctx:
        spans = spans_confirm_carried(transcript=t, actor=annotator, label="PERSON")
    assert len(spans) == n
    return len(ctx.captured_queries)


def test_a_confirmation_takes_the_same_queries_at_any_size(annotator):
    assert _queries(annotator, 5) == _queries(annotator, 60)


def test_the_form_tables_confirm_inputs_post_one_action(hearing, annotator, client):
    client.force_login(annotator)
    url = reverse("annotations:review-forms-action", args=[hearing.pk, "confirm_carried"])
    answer = client.post(url + "?label=PERSON", {"label": "PERSON", "form": "dodge"})
    assert answer.status_code == 302
    assert states(hearing)["Dodge"] == ("rejected", "PERSON")
    assert states(hearing)["Camry"] == ("suggested", "PERSON")
    client.post(url + "?label=PERSON", {"label": "PERSON"})  # the label's input
    assert states(hearing)["Camry"] == ("rejected", "PERSON")
    assert states(hearing)["Folsom"] == ("accepted", "LOCATION")
    page = client.get(reverse("annotations:review-forms", args=[hearing.pk]) + "?label=PERSON")
    assert 'id="confirm-carried"' not in page.content.decode()  # nothing left to confirm
