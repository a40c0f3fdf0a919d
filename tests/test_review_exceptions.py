""" "Not a leak here": per occurrence, with a reason, audited, undone
by undo, frozen with the transcript, counted by the four-eyes rule; and the allow-list
never hides a name the transcript gives."""

import pytest
from django.urls import reverse

from annotations.models import AllowListTerm, LeakException, Span
from annotations.services import review as rs
from annotations.services import workflow as wf
from annotations.services.leaks import NOT_A_LEAK, blocking_leaks, leak_check
from anonreview.core.models import AuditEvent
from tests.factories import make_transcript, make_user
from transcripts.models import Transcript

pytestmark = pytest.mark.django_db
S = Transcript.State
# The facilitator Jonathon Good (made-up) greets; "Good evening" is the ordinary phrase (not seeded).
TEXT = (
    "PRESIDING COMMISSIONER ALDEN: Good evening, Mr. Jonathon.\n"
    "INMATE QUILL: Good evening. Mr. Jonathon was here.\n"
)
META = {"participants": [{"name": "Jonathon Good", "role": "facilitator"}]}


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def hearing(state=S.IN_REVIEW, assignees=()):
    t = make_transcript(TEXT, state=state, assignees=assignees, metadata=META)
    for word in ("ALDEN", "QUILL", "Jonathon"):
        start = -1
        while (start := t.text.find(word, start + 1)) >= 0:
            Span.objects.create(
                transcript=t, start=start, end=start + len(word), label="PERSON",
                status=Span.Status.ACCEPTED,
            )  # fmt: skip
    rs.review_assign_entities(transcript=t)
    return t


def goods(t):
    return [i for i in range(len(t.text)) if t.text.startswith("Good", i)]


def test_good_evening_is_a_blocking_finding_of_the_cover_name_good(annotator):
    t = hearing(assignees=[annotator])
    assert [x.text for x in blocking_leaks(leak_check(transcript=t))] == ["Good", "Good"]


def test_not_a_leak_here_unblocks_that_occurrence_only(annotator):
    t = hearing(assignees=[annotator])
    first, second = goods(t)
    exception = rs.leak_exception_add(
        transcript=t, actor=annotator, start=first, end=first + 4, reason="ordinary_word"
    )
    leaks = leak_check(transcript=t)
    assert [(x.source_start, x.kind, x.blocking) for x in leaks] == [
        (first, NOT_A_LEAK, False),
        (second, "cover", True),
    ]
    event = AuditEvent.objects.get(transcript=t, event_type="review.not_a_leak")
    assert event.after["exception"] == exception.pk and event.after["reason"] == "ordinary_word"
    assert "Good" not in str(event.after) and "Good" not in str(event.before)  # no text
    with pytest.raises(wf.SubmitLeaksFound):
        wf.transcript_submit(transcript=t, actor=annotator)
    rs.leak_exception_add(
        transcript=t, actor=annotator, start=second, end=second + 4, reason="ordinary_word"
    )
    wf.transcript_submit(transcript=t, actor=annotator)
    assert Transcript.objects.get(pk=t.pk).state == S.SUBMITTED


def test_an_exception_is_never_global(annotator):
    t = hearing(assignees=[annotator])
    first, _second = goods(t)
    rs.leak_exception_add(
        transcript=t, actor=annotator, start=first, end=first + 4, reason="ordinary_word"
    )
    other = hearing(assignees=[annotator])
    assert len(blocking_leaks(leak_check(transcript=other))) == 2
    assert not AllowListTerm.objects.filter(term__iexact="Good").exists()


def test_undo_removes_the_exception(annotator):
    t = hearing(assignees=[annotator])
    first, _ = goods(t)
    rs.leak_exception_add(
        transcript=t, actor=annotator, start=first, end=first + 4, reason="public_role"
    )
    event = rs.review_undo(transcript=t, actor=annotator)
    assert event.after["action"] == "not_a_leak"
    assert not LeakException.objects.filter(transcript=t).exists()


def test_other_needs_a_note_and_reasons_are_checked(annotator):
    t = hearing(assignees=[annotator])
    first, _ = goods(t)
    with pytest.raises(rs.ReviewError, match="why"):
        rs.leak_exception_add(
            transcript=t, actor=annotator, start=first, end=first + 4, reason="other"
        )
    with pytest.raises(rs.ReviewError, match="Choose why"):
        rs.leak_exception_add(transcript=t, actor=annotator, start=first, end=first + 4, reason="x")
    with pytest.raises(rs.ReviewError, match="not an occurrence"):
        rs.leak_exception_add(
            transcript=t, actor=annotator, start=5, end=len(t.text) + 3, reason="ordinary_word"
        )
    rs.leak_exception_add(
        transcript=t, actor=annotator, start=first, end=first + 4, reason="other",
        note="A greeting.",
    )  # fmt: skip


def test_no_exception_on_a_submitted_transcript_and_it_counts_for_four_eyes(annotator, lead):
    t = hearing(assignees=[annotator])
    first, second = goods(t)
    rs.leak_exception_add(
        transcript=t, actor=lead, start=first, end=first + 4, reason="ordinary_word"
    )
    rs.leak_exception_add(
        transcript=t, actor=annotator, start=second, end=second + 4, reason="ordinary_word"
    )
    wf.transcript_submit(transcript=t, actor=annotator)
    with pytest.raises(rs.ReviewPermissionError):
        rs.leak_exception_add(
            transcript=t, actor=lead, start=first + 5, end=first + 12, reason="ordinary_word"
        )
    with pytest.raises(wf.TransitionError, match="not a leak"):
        wf.transcript_approve(transcript=t, actor=lead)
    wf.transcript_approve(transcript=t, actor=make_user("lead-c", role="lead"))


def test_the_release_passes_with_the_exceptions_and_keeps_the_phrase(annotator, lead):
    t = hearing(assignees=[annotator])
    for at in goods(t):
        rs.leak_exception_add(
            transcript=t, actor=annotator, start=at, end=at + 4, reason="ordinary_word"
        )
    wf.transcript_submit(transcript=t, actor=annotator)
    wf.transcript_approve(transcript=t, actor=lead)
    from annotations.services.export import release_text

    text = release_text(transcript=Transcript.objects.get(pk=t.pk))
    assert text.count("Good evening") == 2 and "Jonathon" not in text


def test_an_allow_list_term_holding_the_cover_name_does_not_hide_it(annotator, lead):
    """A lead's "Good" on the allow-list, or the phrase "Good evening", hides no "Good"
    of this hearing. Here "Good" is a name: the
    reviewer marks each greeting "not a leak here" instead."""
    t = hearing(assignees=[annotator])
    AllowListTerm.objects.create(term="Good")
    assert len(blocking_leaks(leak_check(transcript=t))) == 2
    AllowListTerm.objects.create(term="Good evening")  # holds the name: hides nothing here
    assert len(blocking_leaks(leak_check(transcript=t))) == 2


def test_the_overview_offers_not_a_leak_here_with_reasons(client, annotator):
    t = hearing(assignees=[annotator])
    client.force_login(annotator)
    response = client.post(reverse("annotations:submit", args=[t.pk]))
    assert response.status_code == 409
    body = response.content.decode()
    assert body.count("Not a leak here</button>") == 2 and 'value="part_of_word"' in body
    first, _ = goods(t)
    response = client.post(
        reverse("annotations:not-a-leak", args=[t.pk]),
        {"start": first, "end": first + 4, "reason": "ordinary_word"},
    )
    assert response.status_code == 302
    assert LeakException.objects.filter(transcript=t, start=first).exists()
    bad = client.post(
        reverse("annotations:not-a-leak", args=[t.pk]),
        {"start": "x", "end": first + 4, "reason": "ordinary_word"},
    )
    assert bad.status_code == 400


# --- one decision for every identical finding; the list stays open -------------------


def test_one_decision_marks_every_identical_finding_with_one_reason(annotator, lead):
    t = hearing(assignees=[annotator])
    first, second = goods(t)
    made = rs.leak_exception_add_all(
        transcript=t, actor=annotator, start=first, end=first + 4, reason="ordinary_word"
    )
    assert [(x.start, x.reason) for x in made] == [
        (first, "ordinary_word"),
        (second, "ordinary_word"),
    ]
    assert blocking_leaks(leak_check(transcript=t)) == []
    events = AuditEvent.objects.filter(transcript=t, event_type="review.not_a_leak")
    assert events.count() == 1
    after = events.get().after
    assert after["exceptions"] == [x.pk for x in made] and after["places"] == [
        [first, first + 4], [second, second + 4]
    ]  # fmt: skip
    assert "Good" not in str(after)  # places, never the text
    wf.transcript_submit(transcript=t, actor=annotator)
    wf.transcript_approve(transcript=t, actor=lead)


def test_identical_means_the_same_text_and_kind_and_undo_takes_them_all_back(annotator):
    text = TEXT + "INMATE QUILL: GOOD. Good evening again.\n"
    t = make_transcript(text, state=S.IN_REVIEW, assignees=[annotator], metadata=META)
    for word in ("ALDEN", "QUILL", "Jonathon"):
        for at in [i for i in range(len(text)) if text.startswith(word, i)]:
            Span.objects.create(transcript=t, start=at, end=at + len(word), label="PERSON",
                                status=Span.Status.ACCEPTED)  # fmt: skip
    first = text.index("Good")
    made = rs.leak_exception_add_all(
        transcript=t, actor=annotator, start=first, end=first + 4, reason="ordinary_word"
    )
    assert len(made) == 3  # the three "Good", not "GOOD"
    assert [x.text for x in blocking_leaks(leak_check(transcript=t))] == ["GOOD"]
    rs.review_undo(transcript=t, actor=annotator)
    assert not LeakException.objects.filter(transcript=t).exists()
    with pytest.raises(rs.ReviewError, match="not a blocking finding"):
        rs.leak_exception_add_all(
            transcript=t, actor=annotator, start=0, end=9, reason="ordinary_word"
        )


def test_a_decision_from_the_list_answers_the_list_again_with_its_count(client, annotator):
    t = hearing(assignees=[annotator])
    client.force_login(annotator)
    body = client.post(reverse("annotations:submit", args=[t.pk])).content.decode()
    assert "Not a leak at all 2 places</button>" in body
    first, second = goods(t)
    url = reverse("annotations:not-a-leak", args=[t.pk])
    one = client.post(
        url, {"start": second, "end": second + 4, "reason": "ordinary_word", "scope": "one"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    assert one.status_code == 200 and 'id="leak-report"' in one.content.decode()
    assert 'data-count="1"' in one.content.decode()
    rest = client.post(
        url, {"start": first, "end": first + 4, "reason": "ordinary_word", "scope": "all"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    assert rest.status_code == 200 and 'data-count="0"' in rest.content.decode()
    assert LeakException.objects.filter(transcript=t).count() == 2


def test_after_submit_answering_the_lists_last_place_submits_without_a_second_press(
    client, annotator
):
    t = hearing(assignees=[annotator])
    client.force_login(annotator)
    body = client.post(reverse("annotations:submit", args=[t.pk])).content.decode()
    assert body.count('name="then" value="submit"') == 2  # each place's form says so
    first, second = goods(t)
    url = reverse("annotations:not-a-leak", args=[t.pk])
    one = client.post(
        url, {"start": second, "end": second + 4, "reason": "ordinary_word", "scope": "one",
              "then": "submit"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    assert one.status_code == 200 and 'name="then" value="submit"' in one.content.decode()
    assert "the last decision submits" in one.content.decode()
    t.refresh_from_db()
    assert t.state == S.IN_REVIEW
    last = client.post(
        url, {"start": first, "end": first + 4, "reason": "ordinary_word", "scope": "one",
              "then": "submit"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    assert last.status_code == 204 and last["HX-Redirect"] == reverse("transcripts:list")
    t.refresh_from_db()
    assert t.state == S.SUBMITTED
    assert AuditEvent.objects.filter(transcript=t, event_type="review.not_a_leak").count() == 2


def test_the_list_of_a_refused_approval_never_submits_or_approves_by_itself(
    client, annotator, lead
):
    t = hearing(assignees=[annotator])
    client.force_login(annotator)
    first, second = goods(t)
    url = reverse("annotations:not-a-leak", args=[t.pk])
    for at in (first, second):  # answered from the overview's list, not after a Submit
        answer = client.post(
            url, {"start": at, "end": at + 4, "reason": "ordinary_word", "scope": "one"},
            HTTP_HX_REQUEST="true",
        )  # fmt: skip
        assert answer.status_code == 200
    t.refresh_from_db()
    assert t.state == S.IN_REVIEW
    assert "submit again" in answer.content.decode()
