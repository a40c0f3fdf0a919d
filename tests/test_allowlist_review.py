"""An allow-list term is no way around Submit or the four-eyes rule.

The attack: the annotator rejects "Mr. Moreno was received" (Moreno: the incarcerated
person, on the cover page); Submit lists the leak; a lead adds the term "Moreno was";
Submit passed, a second lead approved, the release held the name. Now a term holding a
name the transcript gives hides nothing there, and adding a term a transcript in review
holds counts as a review action on it: its author cannot approve it.
"""

import pytest
from django.urls import reverse

from annotations.models import Span
from annotations.services import allowlist
from annotations.services import workflow as wf
from anonreview.core.models import AuditEvent
from tests.factories import make_transcript, make_user
from transcripts.models import Transcript

pytestmark = pytest.mark.django_db

S = Transcript.State
TEXT = (
    "PRESIDING COMMISSIONER ALDEN: Mr. Moreno was received at the institution in 2011.\n"
    "INMATE: Yes, that is right.\n"
)
META = {"incarcerated_person": "MORENO, Rafael"}


def hearing(state, assignees=(), *, moreno="rejected"):
    t = make_transcript(TEXT, state=state, assignees=assignees, metadata=META)
    for word, status in (("ALDEN", "accepted"), ("Moreno", moreno)):
        start = t.text.index(word)
        Span.objects.create(
            transcript=t,
            start=start,
            end=start + len(word),
            label="PERSON",
            status=status,
            provenance=[{"detector": "cover", "score": 1.0}],
        )
    return t


def test_a_phrase_holding_the_cover_name_does_not_silence_the_submit_screen(
    client, annotator, lead
):
    """As the user meets it: the Submit screen lists the leak before and after the term."""
    t = hearing(S.IN_REVIEW, [annotator])
    client.force_login(annotator)
    first = client.post(reverse("annotations:submit", args=[t.pk]))
    assert first.status_code == 409 and "<code>Moreno</code>" in first.content.decode()
    client.force_login(lead)
    added = client.post(reverse("annotations:allowlist"), {"term": "Moreno was", "note": ""})
    assert added.status_code == 302
    client.force_login(annotator)
    again = client.post(reverse("annotations:submit", args=[t.pk]))
    assert again.status_code == 409
    assert "<code>Moreno</code>" in again.content.decode()
    assert Transcript.objects.get(pk=t.pk).state == S.IN_REVIEW


@pytest.mark.parametrize("term", ["Moreno was", "Mr. Moreno was received", "MORENO WAS"])
def test_submit_refuses_despite_a_phrase_holding_the_name(annotator, lead, term):
    t = hearing(S.IN_REVIEW, [annotator])
    allowlist.allowlist_term_add(term=term, user=lead)
    with pytest.raises(wf.SubmitLeaksFound) as exc:
        wf.transcript_submit(transcript=t, actor=annotator)
    assert [leak.text for leak in exc.value.leaks] == ["Moreno"]


def test_the_phrase_still_hides_its_words_where_no_name_is_given(annotator, lead):
    """Elsewhere "Moreno was" stays an ordinary phrase: a hearing that gives no name Moreno
    (a place called Moreno Valley, say) is not blocked by it."""
    t = make_transcript(
        "PRESIDING COMMISSIONER ALDEN: The Moreno was the old name of the road.\n",
        state=S.IN_REVIEW,
        assignees=[annotator],
    )
    start = t.text.index("ALDEN")
    Span.objects.create(transcript=t, start=start, end=start + 5, label="PERSON", status="added")
    allowlist.allowlist_term_add(term="Moreno was", user=lead)
    wf.transcript_submit(transcript=t, actor=annotator)
    assert Transcript.objects.get(pk=t.pk).state == S.SUBMITTED


def test_the_lead_who_adds_a_term_a_transcript_in_review_holds_cannot_approve_it(annotator):
    author, other = make_user("lead1", role="lead"), make_user("lead2", role="lead")
    t = hearing(S.IN_REVIEW, [annotator], moreno="accepted")
    untouched = hearing(S.IN_REVIEW, [annotator], moreno="accepted")
    untouched.text = untouched.text.replace("was received", "came")  # no "Moreno was" here
    Transcript.objects.filter(pk=untouched.pk).update(text=untouched.text)
    approved = hearing(S.APPROVED, [annotator], moreno="accepted")
    allowlist.allowlist_term_add(term="Moreno was", user=author)
    rows = AuditEvent.objects.filter(event_type=allowlist.IN_REVIEW_EVENT)
    assert [(r.transcript_id, r.actor_id) for r in rows] == [(t.pk, author.pk)]
    assert "Moreno" not in str(rows[0].after)  # the term's id, never its text
    for x in (t, untouched):
        wf.transcript_submit(transcript=x, actor=annotator)
    refusal = wf.approval_refusal(transcript=t, actor=author)
    assert "you added an allow-list term found in its text while it was in review" in refusal
    with pytest.raises(wf.TransitionError, match="allow-list term"):
        wf.transcript_approve(transcript=t, actor=author)
    assert wf.approval_refusal(transcript=untouched, actor=author) is None
    assert wf.approval_refusal(transcript=approved, actor=author) is None
    wf.transcript_approve(transcript=t, actor=other)
    assert Transcript.objects.get(pk=t.pk).state == S.APPROVED


@pytest.mark.parametrize("state", [S.READY, S.SUBMITTED, S.RETURNED])
def test_every_state_between_annotation_and_approval_counts_as_in_review(lead, state):
    t = hearing(state, moreno="accepted")
    allowlist.allowlist_term_add(term="moreno  WAS", user=lead)
    assert AuditEvent.objects.filter(event_type=allowlist.IN_REVIEW_EVENT, transcript=t).exists()
    assert "allow-list term" in wf.approval_refusal(transcript=t, actor=lead)


@pytest.mark.parametrize("state", [S.IMPORTED, S.ANNOTATING, S.APPROVED, S.RELEASED])
def test_states_outside_review_are_not_counted(lead, state):
    hearing(state, moreno="accepted")
    allowlist.allowlist_term_add(term="Moreno was", user=lead)
    assert not AuditEvent.objects.filter(event_type=allowlist.IN_REVIEW_EVENT).exists()


def test_the_approve_button_is_refused_to_the_terms_author_on_the_page(client, annotator):
    author = make_user("lead1", role="lead")
    t = hearing(S.SUBMITTED, [annotator], moreno="accepted")
    client.force_login(author)
    client.post(reverse("annotations:allowlist"), {"term": "Moreno was", "note": ""})
    response = client.post(reverse("annotations:approve", args=[t.pk]), follow=True)
    assert "you added an allow-list term found in its text" in response.content.decode()
    assert Transcript.objects.get(pk=t.pk).state == S.SUBMITTED
