"""The release rule: nothing undecided leaves, nobody edits a
submitted, approved or released transcript, and nobody approves their own change."""

import pytest
from django.urls import reverse

from annotations.models import Span
from annotations.services import export
from annotations.services import review as rs
from annotations.services import workflow as wf
from annotations.services.leaks import blocking_leaks, leak_check
from tests.factories import make_transcript, make_user
from transcripts.models import Transcript

S = Transcript.State
pytestmark = pytest.mark.django_db
TEXT = (
    "PRESIDING COMMISSIONER ALDEN: Good morning, Mr. Quill.\n"
    "INMATE QUILL: I lived at 12 Larkspur Lane with Dana Quill on May 13, 1980.\n"
)


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def second_lead(db):
    return make_user("lead-b", role="lead")


def span_at(t, word, label="PERSON", status=Span.Status.ACCEPTED, nth=0):
    start = -1
    for _ in range(nth + 1):
        start = t.text.index(word, start + 1)
    return Span.objects.create(
        transcript=t, start=start, end=start + len(word), label=label, status=status,
        provenance=[{"detector": "spacy", "score": 0.9}],
    )  # fmt: skip


def hearing(state=S.IN_REVIEW, assignees=(), address_status=Span.Status.ACCEPTED):
    """Every name, the address and the date as spans; the address's status is given."""
    t = make_transcript(TEXT, state=state, assignees=assignees)
    span_at(t, "ALDEN")
    span_at(t, "Quill")
    span_at(t, "QUILL")
    span_at(t, "Dana")
    span_at(t, "Quill", nth=1)
    span_at(t, "May 13, 1980", "DATE")
    span_at(t, "12 Larkspur Lane", "LOCATION", status=address_status)
    rs.review_assign_entities(transcript=t)
    return t


# --- Nothing undecided leaves ----------------------------------------------


def test_the_reproduction_undo_on_a_submitted_transcript_is_refused_and_nothing_leaks(
    annotator, lead, second_lead
):
    """Lead B accepts the address; the annotator submits; B's Undo is refused (before the
    fix: 200, the address suggested again); another lead approves; the release holds no
    address."""
    t = hearing(assignees=[annotator], address_status=Span.Status.SUGGESTED)
    address = Span.objects.get(transcript=t, label="LOCATION")
    rs.span_accept(span=address, actor=second_lead, version=address.version)
    wf.transcript_submit(transcript=t, actor=annotator)
    with pytest.raises(rs.ReviewPermissionError, match="submitted"):
        rs.review_undo(transcript=t, actor=second_lead)
    assert Span.objects.get(pk=address.pk).status == Span.Status.ACCEPTED
    with pytest.raises(wf.TransitionError, match="review changes"):
        wf.transcript_approve(transcript=t, actor=second_lead)
    wf.transcript_approve(transcript=t, actor=lead)
    text = export.release_text(transcript=Transcript.objects.get(pk=t.pk))
    assert "Larkspur" not in text


FROZEN = [S.SUBMITTED, S.APPROVED, S.RELEASED]


def _actions(t, actor):
    """Every kind of span edit the review offers, as callables on ``t``."""
    quill = Span.objects.filter(transcript=t, label="PERSON").order_by("start")[1]
    dana = Span.objects.get(transcript=t, start=t.text.index("Dana"))
    date = Span.objects.get(transcript=t, label="DATE")
    person_refs = list(
        t.entities.filter(label="PERSON").order_by("pk").values_list("ref", flat=True)
    )
    start = t.text.index("Good")
    return {
        "accept": lambda: rs.span_accept(span=date, actor=actor, version=date.version),
        "reject": lambda: rs.span_reject(span=date, actor=actor, version=date.version),
        "relabel": lambda: rs.span_relabel(span=date, actor=actor, label="TIME", version=date.version),
        "resize": lambda: rs.span_resize(span=dana, actor=actor, edge="right", version=dana.version),
        "add": lambda: rs.span_add(transcript=t, actor=actor, start=start, end=start + 4, label="PERSON"),
        "delete": lambda: rs.span_delete(span=date, actor=actor, version=date.version),
        "undo": lambda: rs.review_undo(transcript=t, actor=actor),
        "merge": lambda: rs.entity_merge(transcript=t, source=person_refs[0], target=person_refs[1], actor=actor),
        "split": lambda: rs.entity_split(transcript=t, entity=quill.entity_id, spans=[quill.pk], actor=actor),
        "apply_all": lambda: rs.span_apply_to_all(span=quill, actor=actor, version=quill.version),
        "accept_all": lambda: rs.spans_accept_all(transcript=t, actor=actor, label="DATE"),
        "accept_form": lambda: rs.spans_accept_form(transcript=t, actor=actor, label="DATE", form=t.text[date.start:date.end]),
        "reject_form": lambda: rs.spans_reject_form(transcript=t, actor=actor, label="DATE", form=t.text[date.start:date.end]),
        "relabel_form": lambda: rs.spans_relabel_form(transcript=t, actor=actor, label="DATE", form=t.text[date.start:date.end], to="TIME"),
        "reject_all": lambda: rs.spans_reject_all(transcript=t, actor=actor, entity=date.entity_id),
        "accept_page": lambda: rs.spans_accept_page(transcript=t, actor=actor, page=1),
    }  # fmt: skip


@pytest.mark.parametrize("state", FROZEN)
@pytest.mark.parametrize("who", ["lead", "annotator"])
@pytest.mark.parametrize(
    "action",
    ["accept", "reject", "relabel", "resize", "add", "delete", "undo", "merge", "split",
     "apply_all", "accept_all", "accept_form", "reject_form", "relabel_form", "reject_all", "accept_page"],
)  # fmt: skip
def test_no_span_edit_of_any_kind_in_a_submitted_approved_or_released_transcript(
    state, who, action, annotator, lead
):
    t = hearing(state=S.IN_REVIEW, assignees=[annotator])
    Span.objects.filter(transcript=t, label="DATE").update(status=Span.Status.SUGGESTED)
    actor = lead if who == "lead" else annotator
    # something of the actor's to undo, done while the review was open
    rs.span_reject(span=Span.objects.get(transcript=t, label="LOCATION"), actor=actor)
    Transcript.objects.filter(pk=t.pk).update(state=state)
    t.refresh_from_db()
    before = sorted(
        Span.objects.filter(transcript=t).values_list(
            "pk", "start", "end", "label", "status", "entity_id"
        )
    )
    with pytest.raises(rs.ReviewPermissionError):
        _actions(t, actor)[action]()
    after = sorted(
        Span.objects.filter(transcript=t).values_list(
            "pk", "start", "end", "label", "status", "entity_id"
        )
    )
    assert after == before


def test_a_flag_for_the_lead_is_still_allowed_on_a_submitted_transcript(annotator):
    t = hearing(state=S.SUBMITTED, assignees=[annotator])
    span = Span.objects.get(transcript=t, label="DATE")
    rs.span_flag(span=span, actor=annotator, flagged=True, note="Is this the hearing date?")
    assert Span.objects.get(pk=span.pk).flagged


def test_the_guard_names_the_way_out(lead):
    t = hearing(state=S.SUBMITTED)
    refusal = rs.review_edit_refusal(transcript=t, user=lead)
    assert "return" in refusal and "frozen" in refusal


def test_a_lead_edits_a_returned_transcript_again(lead):
    t = hearing(state=S.RETURNED)
    date = Span.objects.get(transcript=t, label="DATE")
    assert rs.span_reject(span=date, actor=lead, version=date.version).status == "rejected"


def _undecided(state, annotator):
    t = hearing(state=state, assignees=[annotator], address_status=Span.Status.SUGGESTED)
    first = Span.objects.get(transcript=t, label="LOCATION")
    return t, f"{reverse('annotations:review', args=[t.pk])}?span={first.pk}"


def test_approval_is_refused_while_a_span_is_undecided_with_the_count_and_a_link(annotator, lead):
    t, url = _undecided(S.SUBMITTED, annotator)
    with pytest.raises(wf.UndecidedSpansError, match="1 suggestion is still undecided") as exc:
        wf.transcript_approve(transcript=t, actor=lead)
    assert exc.value.count == 1 and exc.value.url == url
    assert Transcript.objects.get(pk=t.pk).state == S.SUBMITTED


def test_release_is_refused_while_a_span_is_undecided(annotator, lead):
    t, url = _undecided(S.APPROVED, annotator)
    with pytest.raises(wf.UndecidedSpansError) as exc:
        wf.transcript_release(transcripts=[t], actor=lead)
    assert exc.value.url == url
    assert Transcript.objects.get(pk=t.pk).state == S.APPROVED


@pytest.mark.parametrize("kind", ["text", "zip", "key", "gold", "gold_split"])
def test_every_export_is_refused_while_a_span_is_undecided(kind, annotator, lead):
    t, url = _undecided(S.APPROVED, annotator)
    build = {
        "text": lambda: export.release_text_export(transcript=t, actor=lead),
        "zip": lambda: export.release_build(transcripts=[t], actor=lead),
        "key": lambda: export.key_build(transcripts=[t], actor=lead),
        "gold": lambda: export.gold_export(transcripts=[t], fmt="jsonl", actor=lead),
        "gold_split": lambda: export.gold_export_split(
            transcripts=[t], fmt="jsonl", actor=lead, ratios=(80, 10, 10), seed=1
        ),
    }[kind]
    with pytest.raises(export.NotReleasable, match="1 suggestion is still undecided") as exc:
        build()
    assert exc.value.url == url


def test_the_export_view_answers_409_with_a_link_to_the_first_undecided_span(
    client, annotator, lead
):
    t, url = _undecided(S.APPROVED, annotator)
    client.force_login(lead)
    response = client.post(reverse("annotations:export-release-text", args=[t.pk]))
    assert response.status_code == 409
    assert f'href="{url}"' in response.content.decode()
    response = client.post(reverse("annotations:export-gold"), {"transcripts": [t.pk]})
    assert response.status_code == 409 and f'href="{url}"' in response.content.decode()
    response = client.post(
        reverse("annotations:export-gold"), {"transcripts": [t.pk], "split": "80,10,10"}
    )
    assert response.status_code == 409 and f'href="{url}"' in response.content.decode()


def test_the_approve_view_says_how_many_are_undecided_and_links_the_first(client, annotator, lead):
    t, url = _undecided(S.SUBMITTED, annotator)
    client.force_login(lead)
    response = client.post(reverse("annotations:approve", args=[t.pk]), follow=True)
    body = response.content.decode()
    assert "1 suggestion is still undecided" in body and f'href="{url}"' in body


def test_the_leak_check_blocks_on_an_undecided_ordinary_suggestion():
    t = make_transcript("Mr. Quill spoke to Reyes.")
    Span.objects.create(transcript=t, start=4, end=9, label="PERSON", status="accepted")
    Span.objects.create(transcript=t, start=19, end=24, label="PERSON", status="suggested")
    leaks = leak_check(transcript=t)
    assert [(x.kind, x.text, x.blocking) for x in blocking_leaks(leaks)] == [
        ("suggested", "Reyes", True)
    ]


# --- Four eyes -------------------------------------------------------------


def test_a_lead_who_deleted_a_span_of_a_returned_transcript_cannot_approve_it(annotator, lead):
    """The second reproduction: a lead returns, starts the review, deletes the address,
    submits and approves alone (before the fix: approved, the address in clear)."""
    t = hearing(state=S.APPROVED, assignees=[annotator])
    wf.transcript_return(transcript=t, actor=lead, comment="One more look.")
    wf.transcript_start_review(transcript=t, actor=lead)
    address = Span.objects.get(transcript=t, label="LOCATION")
    rs.span_delete(span=address, actor=lead, version=address.version)
    assert not Span.objects.filter(transcript=t, reviewer=lead).exists()
    wf.transcript_submit(transcript=t, actor=lead)  # the address is no name: nothing blocks
    with pytest.raises(
        wf.TransitionError, match=r"review changes on it \(delete\) and you submitted it"
    ):
        wf.transcript_approve(transcript=t, actor=lead)
    assert Transcript.objects.get(pk=t.pk).state == S.SUBMITTED


def test_a_lead_whose_only_review_event_is_an_undo_cannot_approve(annotator, lead):
    t = hearing(state=S.IN_REVIEW, assignees=[annotator])
    date = Span.objects.get(transcript=t, label="DATE")
    rs.span_reject(span=date, actor=lead, version=date.version)
    rs.review_undo(transcript=t, actor=lead)
    Span.objects.filter(transcript=t).update(reviewer=annotator)  # no trace on the spans
    wf.transcript_submit(transcript=t, actor=annotator)
    assert wf.approval_refusal(transcript=t, actor=lead) is not None
    with pytest.raises(wf.TransitionError, match="another lead must approve"):
        wf.transcript_approve(transcript=t, actor=lead)


def test_the_lead_who_submitted_cannot_approve(lead, second_lead):
    t = hearing(state=S.IN_REVIEW)
    wf.transcript_submit(transcript=t, actor=lead)
    with pytest.raises(wf.TransitionError, match="you submitted it"):
        wf.transcript_approve(transcript=t, actor=lead)
    wf.transcript_approve(transcript=t, actor=second_lead)
    assert Transcript.objects.get(pk=t.pk).state == S.APPROVED


def test_a_lead_who_only_read_and_returned_may_approve(annotator, lead):
    t = hearing(state=S.SUBMITTED, assignees=[annotator])
    wf.transcript_return(transcript=t, actor=lead, comment="Check the date.")
    wf.transcript_start_review(transcript=t, actor=annotator)
    wf.transcript_submit(transcript=t, actor=annotator)
    assert wf.approval_refusal(transcript=t, actor=lead) is None
    wf.transcript_approve(transcript=t, actor=lead)


def test_the_overview_hides_approve_from_a_lead_with_a_review_event(client, annotator, lead):
    t = hearing(state=S.IN_REVIEW, assignees=[annotator])
    date = Span.objects.get(transcript=t, label="DATE")
    rs.span_delete(span=date, actor=lead, version=date.version)
    wf.transcript_submit(transcript=t, actor=annotator)
    client.force_login(lead)
    body = client.get(reverse("annotations:detail", args=[t.pk])).content.decode()
    assert f'action="/transcripts/{t.pk}/approve/"' not in body
    assert "review changes on it (delete)" in body
