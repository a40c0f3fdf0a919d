"""transcripts.selectors, audit visibility under double annotation:
until both annotators submitted, each sees only their own copy's events on the audit and
overview pages."""

import pytest
from django.urls import reverse

from annotations.models import Span
from annotations.services import review as rs
from anonreview.core.models import AuditEvent
from tests.factories import make_suggestion, make_transcript
from transcripts.models import Transcript
from transcripts.selectors import audit_list

pytestmark = pytest.mark.django_db
S = Transcript.State
TEXT = "PRESIDING COMMISSIONER ALDEN: Good morning, Mr. Quill.\nINMATE QUILL: Good morning.\n"


def double_annotated(client, lead):
    t = make_transcript(TEXT, state=S.READY)
    start = TEXT.index("Quill")
    make_suggestion(t, start, start + 5, "PERSON", detectors=("spacy",))
    client.force_login(lead)
    client.post(
        reverse("transcripts:assign", args=[t.pk]), {"annotator": "ann", "second_annotator": "ann2"}
    )
    return t, Transcript.objects.get(double_of=t)


def decide(transcript, user, how):
    span = Span.objects.get(transcript=transcript)
    getattr(rs, f"span_{how}")(span=span, actor=user, version=span.version)


def test_first_annotator_does_not_see_the_second_annotators_decisions(
    client, lead, annotator, other_annotator
):
    t, copy = double_annotated(client, lead)
    decide(t, annotator, "accept")
    decide(copy, other_annotator, "reject")
    client.force_login(annotator)
    for url in (
        reverse("transcripts:audit", args=[t.pk]),
        reverse("annotations:detail", args=[t.pk]),
    ):
        html = client.get(url).content.decode()
        assert "review.accept" in html
        assert "review.reject" not in html and 'data-user="ann2"' not in html, url
    assert not audit_list(user=annotator, transcript=t).filter(transcript=copy).exists()


def test_second_annotator_sees_only_their_copy(client, lead, annotator, other_annotator):
    t, copy = double_annotated(client, lead)
    decide(t, annotator, "accept")
    decide(copy, other_annotator, "reject")
    client.force_login(other_annotator)
    html = client.get(reverse("transcripts:audit", args=[copy.pk])).content.decode()
    assert "review.reject" in html and "review.accept" not in html
    assert client.get(reverse("transcripts:audit", args=[t.pk])).status_code == 404


def test_after_both_submitted_annotators_and_leads_see_both_copies(
    client, lead, annotator, other_annotator
):
    t, copy = double_annotated(client, lead)
    decide(t, annotator, "accept")
    decide(copy, other_annotator, "reject")
    client.force_login(lead)
    lead_html = client.get(reverse("transcripts:audit", args=[t.pk])).content.decode()
    assert "review.reject" in lead_html and "review.accept" in lead_html
    Transcript.objects.filter(pk__in=[t.pk, copy.pk]).update(state=S.SUBMITTED)
    client.force_login(annotator)
    html = client.get(reverse("transcripts:audit", args=[t.pk])).content.decode()
    assert "review.reject" in html and "review.accept" in html


def test_audit_filter_lists_only_names_and_actions_the_reader_may_see(
    client, lead, annotator, other_annotator
):
    t, copy = double_annotated(client, lead)
    decide(copy, other_annotator, "reject")
    AuditEvent.objects.create(actor_username="someone-else", event_type="secret.action")
    client.force_login(annotator)
    html = client.get(reverse("transcripts:audit", args=[t.pk])).content.decode()
    assert "someone-else" not in html and "secret.action" not in html
    assert '<option value="ann2"' not in html and "review.reject" not in html
