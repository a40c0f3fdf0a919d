"""A carried decision is a proposal: nothing a reviewer of another transcript decided
stands for this one. Approved hearings rejected Rose, Guy, Young, King, Grace and Faith as
ordinary words; a new hearing that names people so releases none of them in clear, and a
carried proposal blocks Submit until a person confirms it."""

import re

import pytest

from annotations.models import Span
from annotations.services import workflow
from annotations.services.annotation import transcript_annotate
from annotations.services.annotation_carried import carried_proposal
from annotations.services.export import release_text
from annotations.services.review import spans_accept_all, spans_confirm_carried
from engine.detectors.base import Detection, Detector, Document
from tests.factories import make_suggestion, make_transcript, make_user
from transcripts.models import Transcript

pytestmark = pytest.mark.django_db

NAMES = ("Rose", "Guy", "Young", "King", "Daniel", "Martin", "Grace", "Faith", "Camry")
NEW_HEARING = (
    "QUILL: My wife Rose visits on Sundays. Rose works nights.\n"
    "QUILL: My cousin Guy drives me to work.\n"
    "QUILL: My sponsor is Daniel Young, and Young runs the program.\n"
    "QUILL: My lawyer is Martin King; King filed the appeal.\n"
)
# where approved hearings met the same words as ordinary words, and rejected them
ORDINARY = (
    "ALDEN: The sun rose. Rose gardens. A Guy rope. Young people. King size. "
    "Grace before meals. Faith in God. A Camry parked."
)


class Words(Detector):
    """One member that proposes every capitalised occurrence of ``NAMES`` as a person."""

    name = "words"

    def detect(self, document: Document) -> list[Detection]:
        return [
            Detection(m.start(), m.end(), "PERSON", 0.8, self.name)
            for word in NAMES
            for m in re.finditer(rf"\b{word}\b", document.text)
        ]


class SecondMember(Words):
    """A second, independent member (a learned model's name) that agrees on Grace."""

    name = "transformer"

    def detect(self, document: Document) -> list[Detection]:
        return [
            Detection(m.start(), m.end(), "PERSON", 0.9, self.name)
            for m in re.finditer(r"\bGrace\b", document.text)
        ]


@pytest.fixture
def words(settings):
    settings.DETECTORS = [{"NAME": "tests.test_carried_proposals.Words", "OPTIONS": {}}]
    return settings


def rejected_in_approved_hearings(n: int = 3) -> None:
    for _ in range(n):
        t = make_transcript(ORDINARY, state=Transcript.State.APPROVED)
        for word in NAMES:
            for m in re.finditer(rf"\b{word}\b", ORDINARY):
                make_suggestion(t, m.start(), m.end(), "PERSON", status="rejected")


def annotated(text: str, annotator) -> Transcript:
    t = make_transcript(text, state=Transcript.State.IMPORTED, assignees=[annotator])
    transcript_annotate(transcript=t)
    workflow.transcript_start_review(transcript=t, actor=annotator)
    return t


def proposals(t: Transcript) -> dict[str, str]:
    """{mention text: carried decision proposed} of the transcript's spans."""
    out = {}
    for span in Span.objects.filter(transcript=t):
        entry = carried_proposal(span.provenance)
        if entry:
            out[t.text[span.start : span.end]] = entry["decision"]
    return out


def review_submit_approve(t: Transcript, annotator) -> str:
    """The annotator confirms what is proposed and accepts every other suggestion, submits;
    another lead approves; the release text."""
    for label in {s.label for s in Span.objects.filter(transcript=t)}:
        if any(carried_proposal(s.provenance) for s in Span.objects.filter(transcript=t)):
            spans_confirm_carried(transcript=t, actor=annotator, label=label)
    if Span.objects.filter(transcript=t, status=Span.Status.SUGGESTED).exists():
        spans_accept_all(transcript=t, actor=annotator, label="PERSON")
    workflow.transcript_submit(transcript=t, actor=annotator)
    workflow.transcript_approve(transcript=t, actor=make_user("lead2", role="lead"))
    return release_text(transcript=Transcript.objects.get(pk=t.pk))


def test_names_a_hearing_gives_after_kinship_and_role_nouns_are_never_proposed_rejected(
    words, annotator
):
    rejected_in_approved_hearings()
    t = annotated(NEW_HEARING, annotator)
    assert proposals(t) == {}  # none of the eight mentions arrives with a rejection
    release = review_submit_approve(t, annotator)
    for name in ("Rose", "Guy", "Young", "King", "Daniel", "Martin"):
        assert not re.search(rf"\b{name}\b", release), name
    assert "My wife [PERSON_" in release


def test_a_surname_beside_a_given_name_is_never_proposed_rejected(words, annotator):
    rejected_in_approved_hearings()
    t = annotated("QUILL: I met Daniel Young there.\nQUILL: Young runs the program.\n", annotator)
    assert proposals(t) == {}
    assert "Young" not in review_submit_approve(t, annotator)


def test_a_form_two_independent_members_propose_as_a_person_is_never_proposed_rejected(
    settings, annotator
):
    settings.DETECTORS = [
        {"NAME": "tests.test_carried_proposals.Words", "OPTIONS": {}},
        {"NAME": "tests.test_carried_proposals.SecondMember", "OPTIONS": {}},
    ]
    rejected_in_approved_hearings(2)
    t = annotated("QUILL: The victim was with Grace that night. I keep Faith.\n", annotator)
    assert proposals(t) == {"Faith": "reject"}  # one member only: proposed, not Grace
    release = review_submit_approve(t, annotator)
    assert "Grace" not in release and "Faith" in release  # the reviewer confirmed Faith


def test_a_carried_proposal_blocks_submit_and_approval_until_a_person_confirms_it(
    words, annotator, lead
):
    rejected_in_approved_hearings()
    t = annotated("QUILL: I drove the Camry home. The Camry was red.\n", annotator)
    assert proposals(t) == {"Camry": "reject"}
    with pytest.raises(workflow.UndecidedSpansError) as refused:
        workflow.transcript_submit(transcript=t, actor=annotator)
    assert refused.value.count == 2
    Transcript.objects.filter(pk=t.pk).update(state=Transcript.State.SUBMITTED)  # forced
    with pytest.raises(workflow.UndecidedSpansError):
        workflow.transcript_approve(transcript=t, actor=lead)
    Transcript.objects.filter(pk=t.pk).update(state=Transcript.State.IN_REVIEW)
    t.refresh_from_db()
    spans_confirm_carried(transcript=t, actor=annotator, label="PERSON", form="camry")
    workflow.transcript_submit(transcript=t, actor=annotator)
    workflow.transcript_approve(transcript=t, actor=lead)
    statuses = set(Span.objects.filter(transcript=t).values_list("status", "reviewer"))
    assert statuses == {(Span.Status.REJECTED, annotator.pk)}  # the reviewer's decision


def test_an_unconfirmed_carried_proposal_is_never_exported(words, annotator, lead):
    rejected_in_approved_hearings()
    t = annotated("QUILL: I drove the Camry home.\n", annotator)
    Transcript.objects.filter(pk=t.pk).update(state=Transcript.State.APPROVED)  # forced
    t.refresh_from_db()
    from annotations.services.export import NotReleasable

    with pytest.raises(NotReleasable):
        release_text(transcript=t)
