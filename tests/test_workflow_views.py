"""Queue, overview, workflow actions and audit pages through the test client."""

import io
import zipfile
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from annotations.models import Span
from anonreview.core.models import AuditEvent
from tests.factories import make_transcript
from transcripts.models import Transcript

S = Transcript.State
TEXT = "PRESIDING COMMISSIONER ALDEN: Good morning, Mr. Quill.\nINMATE QUILL: Good morning.\n"


def span(t, word, status=Span.Status.ACCEPTED, label="PERSON"):
    start = t.text.index(word)
    return Span.objects.create(
        transcript=t,
        start=start,
        end=start + len(word),
        label=label,
        status=status,
        provenance=[{"detector": "cover", "score": 1.0}],
    )


def annotated(state, assignees, leak=False):
    t = make_transcript(TEXT, state=state, assignees=assignees)
    span(t, "ALDEN")
    span(t, "Quill")
    if not leak:
        span(t, "QUILL")
    return t


def test_lead_queue_shows_states_assignees_progress_and_age(client, lead, annotator):
    t = make_transcript(TEXT, state=S.IN_REVIEW, assignees=[annotator])
    span(t, "ALDEN")
    span(t, "Quill", status=Span.Status.SUGGESTED)
    make_transcript(TEXT, state=S.IMPORTED)
    client.force_login(lead)
    html = client.get(reverse("transcripts:list")).content.decode()
    assert f'data-transcript-id="{t.pk}" data-state="in_review"' in html
    assert "1/2 decided" in html
    assert "ann" in html
    assert f'action="/transcripts/{t.pk}/assign/"' in html
    assert 'id="release-form"' in html


def test_queue_filters_by_state_and_assignee(client, lead, annotator, other_annotator):
    a = make_transcript(TEXT, state=S.READY, assignees=[annotator])
    b = make_transcript(TEXT, state=S.SUBMITTED, assignees=[other_annotator])
    client.force_login(lead)
    html = client.get(reverse("transcripts:list"), {"state": "submitted"}).content.decode()
    assert f'data-transcript-id="{b.pk}"' in html and f'data-transcript-id="{a.pk}"' not in html
    html = client.get(reverse("transcripts:list"), {"assignee": "ann"}).content.decode()
    assert f'data-transcript-id="{a.pk}"' in html and f'data-transcript-id="{b.pk}"' not in html


def test_annotator_sees_only_their_queue_without_lead_controls(client, annotator, other_annotator):
    mine = make_transcript(TEXT, assignees=[annotator])
    theirs = make_transcript(TEXT, assignees=[other_annotator])
    client.force_login(annotator)
    html = client.get(reverse("transcripts:list")).content.decode()
    assert (
        f'data-transcript-id="{mine.pk}"' in html
        and f'data-transcript-id="{theirs.pk}"' not in html
    )
    assert "My queue" in html and 'id="release-form"' not in html and "/assign/" not in html
    assert client.get(reverse("annotations:detail", args=[theirs.pk])).status_code == 404


def test_lead_assigns_two_annotators_from_the_queue(client, lead, annotator, other_annotator):
    t = make_transcript(TEXT, state=S.READY)
    client.force_login(lead)
    response = client.post(
        reverse("transcripts:assign", args=[t.pk]), {"annotator": "ann", "second_annotator": "ann2"}
    )
    assert response.status_code == 302
    assert list(t.assignees.all()) == [annotator]
    assert Transcript.objects.get(double_of=t).assignees.get() == other_annotator


def test_annotator_cannot_assign(client, annotator):
    t = make_transcript(TEXT)
    client.force_login(annotator)
    assert (
        client.post(reverse("transcripts:assign", args=[t.pk]), {"annotator": "ann"}).status_code
        == 403
    )


def test_submit_with_undecided_spans_shows_the_reason(client, annotator):
    t = make_transcript(TEXT, state=S.IN_REVIEW, assignees=[annotator])
    span(t, "ALDEN", status=Span.Status.SUGGESTED)
    client.force_login(annotator)
    response = client.post(reverse("annotations:submit", args=[t.pk]), follow=True)
    assert "1 suggestion is still undecided" in response.content.decode()
    assert Transcript.objects.get(pk=t.pk).state == S.IN_REVIEW


def test_start_review_redirects_to_the_review_page(client, annotator):
    t = make_transcript(TEXT, state=S.READY, assignees=[annotator])
    client.force_login(annotator)
    response = client.post(reverse("annotations:start-review", args=[t.pk]))
    assert response.status_code == 302 and response["Location"] == f"/transcripts/{t.pk}/review/"


def test_failed_leak_check_lists_each_leak_and_does_not_approve(client, lead, annotator):
    t = annotated(S.SUBMITTED, [annotator], leak=True)
    client.force_login(lead)
    response = client.post(reverse("annotations:approve", args=[t.pk]))
    assert response.status_code == 409
    html = response.content.decode()
    assert 'id="leak-report"' in html and html.count('class="leak"') == 1
    assert "<code>QUILL</code>" in html
    assert Transcript.objects.get(pk=t.pk).state == S.SUBMITTED


def test_lead_approves_and_then_the_page_is_read_only(client, lead, annotator):
    t = annotated(S.SUBMITTED, [annotator])
    client.force_login(lead)
    response = client.post(reverse("annotations:approve", args=[t.pk]), follow=True)
    html = response.content.decode()
    assert "approved: the leak check passed" in html and "read-only" in html
    assert 'id="release"' in html and 'id="approve"' not in html


def test_annotator_cannot_approve_or_return(client, annotator):
    t = annotated(S.SUBMITTED, [annotator])
    client.force_login(annotator)
    assert client.post(reverse("annotations:approve", args=[t.pk])).status_code == 403
    assert (
        client.post(reverse("annotations:return", args=[t.pk]), {"comment": "x"}).status_code == 403
    )


def test_return_with_comment_is_shown_to_the_annotator(client, lead, annotator):
    t = annotated(S.SUBMITTED, [annotator])
    client.force_login(lead)
    client.post(reverse("annotations:return", args=[t.pk]), {"comment": "Speaker tag on line 2."})
    client.force_login(annotator)
    html = client.get(reverse("annotations:detail", args=[t.pk])).content.decode()
    assert "Speaker tag on line 2." in html and "Resume review" in html


def test_release_downloads_a_zip_and_marks_released(client, lead, annotator):
    t = annotated(S.APPROVED, [annotator])
    client.force_login(lead)
    response = client.post(
        reverse("annotations:release"), {"transcript": [t.pk], "strategy": "tags"}
    )
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.content)) as zf:
        assert f"transcript-{t.pk}.txt" in zf.namelist()
    assert Transcript.objects.get(pk=t.pk).state == S.RELEASED


def test_release_of_an_unapproved_transcript_is_refused_in_words(client, lead, annotator):
    t = annotated(S.SUBMITTED, [annotator])
    client.force_login(lead)
    response = client.post(reverse("annotations:release"), {"transcript": [t.pk]}, follow=True)
    assert "only approved transcripts can be released" in response.content.decode()


def test_audit_page_filters_by_user_action_and_date(client, lead, annotator):
    t = make_transcript(TEXT, state=S.READY, assignees=[annotator])
    client.force_login(annotator)
    client.post(reverse("annotations:start-review", args=[t.pk]))
    client.force_login(lead)
    client.post(
        reverse("annotations:return", args=[t.pk]), {"comment": "no"}
    )  # refused: wrong state
    old = AuditEvent.objects.create(actor_username="ghost", event_type="old.event", transcript=t)
    AuditEvent.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=10))
    url = reverse("transcripts:audit", args=[t.pk])
    html = client.get(url).content.decode()
    assert html.count('class="audit-event"') == 2
    html = client.get(url, {"user": "ann"}).content.decode()
    assert html.count('class="audit-event"') == 1 and 'data-user="ann"' in html
    html = client.get(url, {"action": "old.event"}).content.decode()
    assert html.count('class="audit-event"') == 1
    today = timezone.localdate().isoformat()
    html = client.get(url, {"from": today, "to": today}).content.decode()
    assert (
        html.count('class="audit-event"') == 1 and "old.event" not in html.split("audit-table")[-1]
    )
    partial = client.get(url, {"user": "ann"}, headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<div id="audit-table">')


def test_corpus_audit_is_for_leads_only(client, lead, annotator):
    t = make_transcript(TEXT, assignees=[annotator])
    AuditEvent.objects.create(actor_username="x", event_type="something", transcript=t)
    client.force_login(annotator)
    assert client.get(reverse("transcripts:audit-all")).status_code == 403
    assert client.get(reverse("transcripts:audit", args=[t.pk])).status_code == 200
    client.force_login(lead)
    html = client.get(reverse("transcripts:audit-all")).content.decode()
    assert 'data-action="something"' in html


def test_overview_shows_agreement_for_a_double_annotated_transcript(
    client, lead, annotator, other_annotator
):
    t = make_transcript(TEXT, state=S.READY)
    span(t, "ALDEN", status=Span.Status.SUGGESTED)
    client.force_login(lead)
    client.post(
        reverse("transcripts:assign", args=[t.pk]), {"annotator": "ann", "second_annotator": "ann2"}
    )
    html = client.get(reverse("annotations:detail", args=[t.pk])).content.decode()
    assert 'id="agreement"' in html and "provisional" in html


def test_annotators_do_not_see_the_agreement_with_the_other_annotator(
    client, lead, annotator, other_annotator
):
    t = make_transcript(TEXT, state=S.READY)
    span(t, "ALDEN", status=Span.Status.SUGGESTED)
    client.force_login(lead)
    client.post(
        reverse("transcripts:assign", args=[t.pk]), {"annotator": "ann", "second_annotator": "ann2"}
    )
    copy = Transcript.objects.get(double_of=t)
    client.force_login(other_annotator)
    html = client.get(reverse("annotations:detail", args=[copy.pk])).content.decode()
    assert 'id="agreement"' not in html and f'href="/transcripts/{t.pk}/"' not in html


def test_queue_counts_every_transcript_of_a_state_for_an_annotator(annotator):
    from transcripts.selectors import queue_counts

    for _ in range(3):
        make_transcript(assignees=[annotator])
    make_transcript()  # someone else's
    assert queue_counts(user=annotator) == {"ready": 3}


# --- the leak list at Submit and at approval ---------------------

TAG_TEXT = (
    "PRESIDING COMMISSIONER ALDEN: Good morning.\nINCARCERATED PERSON QUILLFEATHER: Good morning.\n"
)


def test_submit_with_an_unannotated_speaker_tag_name_is_refused_with_the_list(client, annotator):
    t = make_transcript(TAG_TEXT, state=S.IN_REVIEW, assignees=[annotator])
    span(t, "ALDEN")
    client.force_login(annotator)
    response = client.post(reverse("annotations:submit", args=[t.pk]))
    assert response.status_code == 409
    html = response.content.decode()
    assert 'id="leak-report"' in html and "<code>QUILLFEATHER</code>" in html
    assert 'data-kind="speaker_tag"' in html
    assert f'href="/transcripts/{t.pk}/review/?page=1#uo-1"' in html
    assert Transcript.objects.get(pk=t.pk).state == S.IN_REVIEW
    # Add the span from the list, then submit again.
    start = TAG_TEXT.index("QUILLFEATHER")
    assert f'name="start" value="{start}"' in html
    added = client.post(
        reverse("annotations:review-action", args=[t.pk, "add"]),
        {"start": start, "end": start + 12, "label": "PERSON"},
    )
    assert added.status_code == 302
    assert Span.objects.filter(transcript=t, start=start, status="added").exists()
    response = client.post(reverse("annotations:submit", args=[t.pk]))
    assert response.status_code == 302
    assert Transcript.objects.get(pk=t.pk).state == S.SUBMITTED


def test_a_speaker_tag_surname_blocks_approval(client, lead, annotator):
    t = make_transcript(TAG_TEXT, state=S.SUBMITTED, assignees=[annotator])
    span(t, "ALDEN")
    client.force_login(lead)
    response = client.post(reverse("annotations:approve", args=[t.pk]))
    assert response.status_code == 409
    assert "<code>QUILLFEATHER</code>" in response.content.decode()
    assert Transcript.objects.get(pk=t.pk).state == S.SUBMITTED


def test_an_honorific_name_and_a_lowercase_cover_name_block_approval(client, lead, annotator):
    text = "PRESIDING COMMISSIONER ALDEN: Mr. Bramblewood, is quillfeather here?\n"
    t = make_transcript(
        text,
        state=S.SUBMITTED,
        assignees=[annotator],
        metadata={"incarcerated_person": "Jonah Quillfeather"},
    )
    span(t, "ALDEN")
    client.force_login(lead)
    response = client.post(reverse("annotations:approve", args=[t.pk]))
    assert response.status_code == 409
    html = response.content.decode()
    assert "<code>Bramblewood</code>" in html and "<code>quillfeather</code>" in html


# --- A failed annotation is run again from the transcript's page ------------


def test_a_lead_runs_a_failed_annotation_again_from_the_transcript_page(client, lead, settings):
    from anonreview.core.models import AuditEvent
    from transcripts.models import Job

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    t = make_transcript(state=Transcript.State.FAILED)
    client.force_login(lead)
    page = client.get(reverse("annotations:detail", args=[t.pk]))
    assert b'id="annotate-again"' in page.content
    response = client.post(reverse("annotations:annotate", args=[t.pk]))
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.state == Transcript.State.ANNOTATING
    job = Job.objects.get(transcript=t, kind=Job.Kind.ANNOTATE)
    assert job.status == Job.Status.QUEUED and job.created_by == lead
    assert AuditEvent.objects.filter(transcript=t, actor=lead).exists()
    page = client.get(reverse("annotations:detail", args=[t.pk]))
    assert f'data-job-id="{job.pk}"'.encode() in page.content
    assert b'id="annotate-again"' not in page.content
    # Twice is refused in words (the first is still queued).
    client.post(reverse("annotations:annotate", args=[t.pk]))
    assert Job.objects.filter(transcript=t, kind=Job.Kind.ANNOTATE).count() == 1


def test_only_leads_run_the_annotation_again(client, annotator):
    t = make_transcript(state=Transcript.State.FAILED, assignees=[annotator])
    client.force_login(annotator)
    assert (
        b'id="annotate-again"' not in client.get(reverse("annotations:detail", args=[t.pk])).content
    )
    assert client.post(reverse("annotations:annotate", args=[t.pk])).status_code == 403
    t.refresh_from_db()
    assert t.state == Transcript.State.FAILED
