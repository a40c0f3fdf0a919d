"""Decisions that carry: a form rejected or relabelled in approved hearings is proposed
the same way in a new one, with its provenance, stays undecided until a person on the
transcript confirms it, and never hides a name the new transcript gives."""

import re

import pytest
from django.urls import reverse

from annotations.models import Span
from annotations.selectors.carried import (
    carried_context_decisions,
    carried_decisions,
    context_in,
    context_of,
    votes_by_level,
)
from annotations.selectors.forms import form_alternatives, review_form_table
from annotations.services import workflow
from annotations.services.annotation import transcript_annotate
from annotations.services.annotation_carried import is_carried
from annotations.services.leaks import leak_check
from annotations.services.review import (
    span_accept,
    spans_accept_form,
    spans_bulk_save,
    spans_confirm_carried,
)
from annotations.summary import review_summary
from anonreview.core.models import AuditEvent
from engine.detectors.base import Detection, Detector, Document
from tests.factories import make_suggestion, make_transcript
from transcripts.models import Transcript

pytestmark = pytest.mark.django_db

APPROVED = Transcript.State.APPROVED


def approved(text: str, decisions: list[tuple[str, str, str, str]], **fields):
    """An approved hearing whose machine proposed ``(word, label)`` and whose reviewer
    left it ``status`` (``accepted``/``rejected``) with ``final`` label."""
    t = make_transcript(text, state=APPROVED, **fields)
    for word, label, status, final in decisions:
        for m in re.finditer(rf"\b{re.escape(word)}\b", text):
            span = make_suggestion(t, m.start(), m.end(), label, status=status)
            if final != label:
                span.label = final
                span.save(update_fields=["label"])
    return t


def new_table(text: str, words: list[tuple[str, str]], **fields):
    t = make_transcript(text, **fields)
    for word, label in words:
        for m in re.finditer(rf"\b{re.escape(word)}\b", text):
            make_suggestion(t, m.start(), m.end(), label)
    table = review_form_table(transcript=t)
    form_alternatives(transcript=t, table=table)
    return {(label, f.key): f for label, forms in table.items() for f in forms}


def test_a_form_rejected_in_approved_hearings_is_offered_as_rejected_with_its_provenance():
    for _ in range(3):
        approved("ALDEN: The Camry was parked.", [("Camry", "PERSON", "rejected", "PERSON")])
    forms = new_table("QUILL: I drove the Camry home.", [("Camry", "PERSON")])
    camry = forms[("PERSON", "camry")]
    assert camry.carried == "reject" and camry.carried_why == "rejected in 3 approved hearings"
    assert camry.open == 1  # still the reviewer's decision


def test_a_form_relabelled_in_approved_hearings_offers_that_label_first():
    for _ in range(2):
        approved("ALDEN: He went to Folsom.", [("Folsom", "PERSON", "accepted", "LOCATION")])
    forms = new_table("QUILL: Folsom was hard.", [("Folsom", "PERSON")])
    folsom = forms[("PERSON", "folsom")]
    assert folsom.carried == "relabel" and folsom.alternative == "LOCATION"
    assert folsom.alternative_why == "relabelled as LOCATION in 2 approved hearings"


@pytest.mark.parametrize(
    ("text", "metadata"),
    [
        ("INMATE HOPE: Good morning.\nALDEN: Hope, sit down.", {}),  # a speaker tag
        ("ALDEN: Hope, sit down.", {"incarcerated_person": "Tom Hope"}),  # the cover
        ("ALDEN: Ms. Hope, sit down.", {}),  # an honorific
        ("ALDEN: Spell it. A: H-O-P-E. Hope.", {}),  # a spelling
    ],
)
def test_a_carried_decision_never_hides_a_name_the_transcript_gives(text, metadata):
    for _ in range(3):
        approved("ALDEN: We live in hope here.", [("hope", "PERSON", "rejected", "PERSON")])
    assert carried_decisions()[("PERSON", "hope")].hearings == 3
    forms = new_table(text, [("Hope", "PERSON")], metadata=metadata)
    hope = forms[("PERSON", "hope")]
    assert hope.carried == "" and hope.carried_why == ""


def test_a_form_kept_as_often_as_rejected_carries_nothing_and_copies_do_not_count():
    for status in ("rejected", "rejected", "accepted", "accepted"):
        approved("ALDEN: Sierra said so.", [("Sierra", "PERSON", status, "PERSON")])
    original = approved("ALDEN: Dodge.", [("Dodge", "PERSON", "rejected", "PERSON")])
    copy = approved("ALDEN: Dodge.", [("Dodge", "PERSON", "rejected", "PERSON")])
    copy.double_of = original
    copy.save()
    carried = carried_decisions()
    assert ("PERSON", "sierra") not in carried
    assert ("PERSON", "dodge") not in carried  # one hearing, not two


def test_the_form_table_shows_the_carried_decision(client, annotator):
    for _ in range(2):
        approved("ALDEN: The Camry was parked.", [("Camry", "PERSON", "rejected", "PERSON")])
    t = make_transcript("QUILL: I drove the Camry home.", assignees=[annotator])
    start = t.text.index("Camry")
    make_suggestion(t, start, start + 5, "PERSON")
    client.force_login(annotator)
    html = client.get(reverse("annotations:review-forms", args=[t.pk]) + "?label=PERSON")
    html = html.content.decode()
    assert 'data-carried="reject"' in html and "rejected in 2 approved hearings" in html
    assert "danger carried" in html


# --- The annotation applies them (annotations.services.annotation_carried) ---------------


class WordDetector(Detector):
    """Proposes every occurrence of a few words with a fixed label (a stand-in for a
    member whose false positives repeat across hearings)."""

    name = "words"
    WORDS = {
        "Camry": "PERSON",
        "Folsom": "PERSON",
        "Hope": "PERSON",
        "Dodge": "PERSON",
        "California": "LOCATION",
    }

    def detect(self, document: Document) -> list[Detection]:
        return [
            Detection(m.start(), m.end(), label, 0.8, self.name)
            for word, label in self.WORDS.items()
            for m in re.finditer(rf"\b{word}\b", document.text)
        ]


@pytest.fixture
def words(settings):
    settings.DETECTORS = [{"NAME": "tests.test_carried_decisions.WordDetector", "OPTIONS": {}}]
    return settings


def annotated(text: str, **fields) -> Transcript:
    t = make_transcript(text, state=Transcript.State.IMPORTED, **fields)
    transcript_annotate(transcript=t)
    return t


def span_of(t: Transcript, word: str) -> Span:
    return Span.objects.get(transcript=t, start=t.text.index(word))


def carried_entry(span: Span) -> dict:
    [entry] = [p for p in span.provenance if p.get("detector") == "carried"]
    return entry


def test_a_form_rejected_in_two_approved_hearings_arrives_undecided_with_the_proposal(words):
    for _ in range(2):
        approved("ALDEN: The Camry was parked.", [("Camry", "PERSON", "rejected", "PERSON")])
    t = annotated("QUILL: I drove the Camry home. Folsom was far.")
    camry = span_of(t, "Camry")
    assert camry.status == Span.Status.SUGGESTED and camry.reviewer is None
    assert carried_entry(camry)["decision"] == "reject"
    assert camry.proposal.label == "PERSON"  # the machine's proposal is kept as it was
    assert carried_entry(camry)["why"] == "rejected in 2 approved hearings"
    assert [p["detector"] for p in camry.provenance] == ["words", "carried"]
    assert span_of(t, "Folsom").status == Span.Status.SUGGESTED  # nothing carries for it
    event = AuditEvent.objects.get(transcript=t, event_type="annotation.suggest")
    assert event.after["carried"] == {"reject": 1, "relabel": 0, "named_here": 0}


def test_the_form_table_and_the_inspector_show_a_carried_rejection_as_a_proposal(
    words, client, annotator
):
    for _ in range(2):
        approved("ALDEN: The Camry was parked.", [("Camry", "PERSON", "rejected", "PERSON")])
    t = annotated("QUILL: I drove the Camry home, the Camry.")
    t.assignees.add(annotator)
    table = review_form_table(transcript=t)
    form_alternatives(transcript=t, table=table)
    [camry] = table["PERSON"]
    assert (camry.status, camry.carried, camry.carried_pending) == ("open", "reject", 2)
    client.force_login(annotator)
    forms = client.get(reverse("annotations:review-forms", args=[t.pk]) + "?label=PERSON")
    html = forms.content.decode()
    assert 'data-carried-pending="2"' in html
    assert "carried: reject — rejected in 2 approved hearings" in html
    assert 'data-form-action="confirm_carried"' in html and 'id="confirm-carried"' in html
    page = client.get(
        reverse("annotations:review", args=[t.pk]) + f"?span={span_of(t, 'Camry').pk}"
    )
    assert "carried: reject — rejected in 2 approved hearings" in page.content.decode()
    assert '<option value="carried"' in page.content.decode()  # the filter lists them all


@pytest.mark.parametrize(
    ("text", "metadata"),
    [
        ("INMATE HOPE: Good morning.\nALDEN: Hope, sit down.", {}),  # a speaker tag
        ("ALDEN: Hope, sit down.", {"incarcerated_person": "Tom Hope"}),  # the cover
        ("ALDEN: Ms. Hope, sit down.", {}),  # an honorific
        ("ALDEN: Spell it. A: H-O-P-E. Hope.", {}),  # a spelling
    ],
)
def test_a_carried_rejection_never_arrives_on_a_name_the_transcript_gives(words, text, metadata):
    for _ in range(3):
        approved("ALDEN: We have Hope here.", [("Hope", "PERSON", "rejected", "PERSON")])
    t = annotated(text, metadata=metadata)
    spans = Span.objects.filter(transcript=t, label="PERSON")
    assert spans and all(s.status == Span.Status.SUGGESTED for s in spans)
    assert not any(p["detector"] == "carried" for s in spans for p in s.provenance)


def test_the_reviewer_reverses_a_carried_rejection_in_one_action(words, annotator):
    for _ in range(2):
        approved("ALDEN: The Camry was parked.", [("Camry", "PERSON", "rejected", "PERSON")])
    t = annotated("QUILL: Camry Jones saw it. Camry came later.")
    t.assignees.add(annotator)
    workflow.transcript_start_review(transcript=t, actor=annotator)
    spans_accept_form(transcript=t, actor=annotator, label="PERSON", form="camry")
    statuses = set(
        Span.objects.filter(transcript=t, label="PERSON").values_list("status", "reviewer")
    )
    assert statuses == {(Span.Status.ACCEPTED, annotator.pk)}
    # approved, the reversal counts as a hearing that kept the form: 2 of 3 no longer carry
    t.state = APPROVED
    t.save(update_fields=["state"])
    assert ("PERSON", "camry") not in carried_decisions()


def test_a_relabel_carries_as_a_proposal_on_the_machines_label(words):
    for _ in range(2):
        approved("ALDEN: He went to Folsom.", [("Folsom", "PERSON", "accepted", "LOCATION")])
    t = annotated("QUILL: Folsom was hard.")
    folsom = span_of(t, "Folsom")
    assert (folsom.status, folsom.label, folsom.proposal.label) == (
        Span.Status.SUGGESTED,
        "PERSON",
        "PERSON",
    )
    entry = carried_entry(folsom)
    assert (entry["decision"], entry["label"]) == ("relabel", "LOCATION")
    assert entry["why"] == "relabelled as LOCATION in 2 approved hearings"
    table = review_form_table(transcript=t)
    form_alternatives(transcript=t, table=table)
    [row] = table["PERSON"]
    assert (row.carried, row.carried_label, row.carried_pending) == ("relabel", "LOCATION", 1)
    assert row.alternative == "LOCATION"


def test_double_annotation_copies_do_not_make_a_decision_carry(words):
    original = approved("ALDEN: Dodge.", [("Dodge", "PERSON", "rejected", "PERSON")])
    copy = approved("ALDEN: Dodge.", [("Dodge", "PERSON", "rejected", "PERSON")])
    copy.double_of = original
    copy.save()
    t = annotated("QUILL: The Dodge was red.")
    assert not is_carried(span_of(t, "Dodge").provenance)


def test_a_confirmed_carried_rejection_counts_apart_from_the_reviewers_own_decisions(
    words, annotator
):
    for _ in range(2):
        approved("ALDEN: The Camry was parked.", [("Camry", "PERSON", "rejected", "PERSON")])
    t = annotated("QUILL: I drove the Camry home.")
    t.assignees.add(annotator)
    workflow.transcript_start_review(transcript=t, actor=annotator)
    spans_confirm_carried(transcript=t, actor=annotator, label="PERSON")
    t.state = APPROVED  # approved with the carried rejection confirmed
    t.save(update_fields=["state"])
    decision = carried_decisions()[("PERSON", "camry")]
    assert (decision.hearings, decision.stood, decision.of) == (2, 1, 3)
    assert decision.why == "rejected in 2 approved hearings, confirmed in 1 more"


def test_reannotation_replaces_an_undecided_carried_proposal_and_keeps_a_decided_one(
    words, annotator
):
    for _ in range(2):
        approved("ALDEN: The Camry was parked.", [("Camry", "PERSON", "rejected", "PERSON")])
    t = annotated("QUILL: The Camry and the Camry again.")
    first, second = Span.objects.filter(transcript=t).order_by("start")
    spans_bulk_save([second], annotator, status=Span.Status.REJECTED)  # a reviewer's own
    transcript_annotate(transcript=t)
    spans = list(Span.objects.filter(transcript=t).order_by("start"))
    assert len(spans) == 2  # no duplicate at either place
    assert spans[0].pk != first.pk and spans[0].status == Span.Status.SUGGESTED
    assert spans[0].reviewer is None and carried_entry(spans[0])
    assert spans[1].pk == second.pk and spans[1].reviewer == annotator


def _confirm_carried_and_accept_the_rest(t: Transcript, annotator) -> None:
    t.assignees.add(annotator)
    workflow.transcript_start_review(transcript=t, actor=annotator)
    for label in {s.label for s in Span.objects.filter(transcript=t) if is_carried(s.provenance)}:
        spans_confirm_carried(transcript=t, actor=annotator, label=label)
    spans_bulk_save(
        list(Span.objects.filter(transcript=t, status=Span.Status.SUGGESTED)),
        annotator,
        status=Span.Status.ACCEPTED,
    )


def test_the_leak_check_at_submit_flags_a_carried_rejection_of_a_name_kept_elsewhere(
    words, annotator
):
    for _ in range(2):
        approved("ALDEN: The Camry was parked.", [("Camry", "PERSON", "rejected", "PERSON")])
    text = "QUILL: The witness was Camry. I saw Camry there.\nALDEN: Go on."
    t = annotated(text)
    assert all(is_carried(s.provenance) for s in Span.objects.filter(transcript=t))
    _confirm_carried_and_accept_the_rest(t, annotator)
    assert {s.status for s in Span.objects.filter(transcript=t)} == {Span.Status.REJECTED}
    # the reviewer keeps the first "Camry" as a name (one span); the second stays rejected
    span_accept(span=span_of(t, "Camry"), actor=annotator)
    with pytest.raises(workflow.SubmitLeaksFound) as found:
        workflow.transcript_submit(transcript=t, actor=annotator)
    second = text.index("Camry", text.index("Camry") + 1)
    assert (second, second + 5) in {(x.source_start, x.source_end) for x in found.value.leaks}


def test_the_leak_check_flags_a_carried_rejection_once_the_cover_gives_the_name(words, annotator):
    for _ in range(2):
        approved("ALDEN: The Camry was parked.", [("Camry", "PERSON", "rejected", "PERSON")])
    t = annotated("QUILL: Camry was there.\nALDEN: Go on.")
    _confirm_carried_and_accept_the_rest(t, annotator)
    assert span_of(t, "Camry").status == Span.Status.REJECTED
    t.metadata = {"incarcerated_person": "Lee Camry"}  # the cover page, corrected later
    t.save(update_fields=["metadata"])
    leaks = leak_check(transcript=t)
    start = t.text.index("Camry")
    assert any(x.source_start == start and x.blocking for x in leaks)


def test_the_approval_summary_lists_the_carried_rejections_confirmed(words, annotator):
    for _ in range(2):
        approved("ALDEN: The Camry was parked.", [("Camry", "PERSON", "rejected", "PERSON")])
    t = annotated("QUILL: The Camry, the Camry. The Dodge.")
    t.assignees.add(annotator)
    workflow.transcript_start_review(transcript=t, actor=annotator)
    summary = review_summary(transcript=t, leaks=[])
    assert summary.counts["undecided"] == {"PERSON": 3}  # proposals are undecided
    assert not summary.rejected_forms
    spans_confirm_carried(transcript=t, actor=annotator, label="PERSON", form="camry")
    dodge = span_of(t, "Dodge")
    spans_bulk_save([dodge], annotator, status=Span.Status.REJECTED)  # the reviewer's own
    summary = review_summary(transcript=t, leaks=[])
    [camry] = summary.rejected_forms
    assert (camry.text, camry.count, camry.carried) == (
        "Camry",
        2,
        "rejected in 2 approved hearings",
    )
    [own] = summary.rejected_spans
    assert (own.text, own.carried) == ("Dodge", "")


def test_the_carried_step_can_be_turned_off(words, settings):
    for _ in range(2):
        approved("ALDEN: The Camry was parked.", [("Camry", "PERSON", "rejected", "PERSON")])
    settings.CARRIED_DECISIONS = False
    t = annotated("QUILL: I drove the Camry home.")
    camry = span_of(t, "Camry")
    assert camry.status == Span.Status.SUGGESTED and not is_carried(camry.provenance)


# --- Decisions that carry by context (the form's votes mixed) ----------------------------


def approved_in_context(text: str, decisions: list[tuple[str, str, str, str]]) -> Transcript:
    """An approved hearing whose machine proposed ``word`` with ``label`` where ``text``
    has ``needle`` (a phrase holding the word), left ``status`` by its reviewer."""
    t = make_transcript(text, state=APPROVED)
    for needle, word, label, status in decisions:
        for m in re.finditer(re.escape(needle), text):
            start = m.start() + needle.index(word)
            make_suggestion(t, start, start + len(word), label, status=status)
    return t


CALIFORNIA_KEPT_AND_REJECTED = (
    "ALDEN: You are housed in Represa, California. The program is in Corona, California.\n"
    "BLAKE: Any family outside California?",
    [
        ("Represa, California", "California", "LOCATION", "accepted"),
        ("Corona, California", "California", "LOCATION", "accepted"),
        ("outside California", "California", "LOCATION", "rejected"),
    ],
)


def test_a_form_rejected_in_one_context_and_kept_in_another_is_proposed_in_that_one(words):
    for _ in range(3):
        approved_in_context(*CALIFORNIA_KEPT_AND_REJECTED)
    assert ("LOCATION", "california") not in carried_decisions()  # the form: kept 3 times
    t = annotated("QUILL: No family outside California? I moved to Fresno, California.")
    outside, address = Span.objects.filter(transcript=t).order_by("start")
    assert outside.status == Span.Status.SUGGESTED and outside.reviewer is None
    assert not is_carried(address.provenance)  # kept after a town: nothing proposed
    entry = carried_entry(outside)
    assert entry["why"] == 'rejected in 3 approved hearings after "outside", before "." "?" "!"'
    assert (entry["decision"], entry["context"]) == ("reject", ["outside", "stop"])


def test_a_form_decided_both_ways_in_the_same_context_carries_nothing(words):
    for status in ("rejected", "rejected", "accepted", "accepted"):
        approved_in_context(
            "ALDEN: Any family outside California?",
            [("outside California", "California", "LOCATION", status)],
        )
    assert not carried_context_decisions()
    t = annotated("QUILL: No family outside California?")
    assert not is_carried(span_of(t, "California").provenance)


def test_a_form_level_decision_comes_first_and_says_no_context(words):
    for _ in range(2):  # rejected everywhere: the form carries, the context adds nothing
        approved_in_context(
            "ALDEN: Any family outside California? Not in Corona, California.",
            [
                ("outside California", "California", "LOCATION", "rejected"),
                ("Corona, California", "California", "LOCATION", "rejected"),
            ],
        )
    assert carried_decisions()[("LOCATION", "california")].hearings == 2
    assert not carried_context_decisions()
    t = annotated("QUILL: No family outside California?")
    entry = carried_entry(span_of(t, "California"))
    assert entry["why"] == "rejected in 2 approved hearings" and "context" not in entry


@pytest.mark.parametrize(
    ("text", "metadata", "hidden"),
    [
        ("ALDEN: We live in Hope.", {}, True),  # the context carries
        ("INMATE HOPE: Good morning.\nALDEN: We live in Hope.", {}, False),  # a speaker tag
        ("ALDEN: We live in Hope.", {"incarcerated_person": "Tom Hope"}, False),  # the cover
    ],
)
def test_a_context_decision_never_hides_a_name_the_transcript_gives(words, text, metadata, hidden):
    for _ in range(3):
        approved_in_context(
            "ALDEN: Mr. Hope is here. Hope said so. We live in hope.",
            [
                ("Mr. Hope", "Hope", "PERSON", "accepted"),
                ("Hope said", "Hope", "PERSON", "accepted"),
                ("in hope", "hope", "PERSON", "rejected"),
            ],
        )
    assert ("PERSON", "hope") not in carried_decisions()
    assert carried_context_decisions()[("PERSON", "hope", "in", "stop")].hearings == 3
    t = annotated(text, metadata=metadata)
    span = span_of(t, "Hope.")
    assert span.status == Span.Status.SUGGESTED
    assert is_carried(span.provenance) is hidden


def test_the_context_keys_can_be_turned_off(words, settings):
    for _ in range(3):
        approved_in_context(*CALIFORNIA_KEPT_AND_REJECTED)
    settings.CARRIED_CONTEXT = False
    t = annotated("QUILL: No family outside California?")
    assert not is_carried(span_of(t, "California").provenance)


@pytest.mark.parametrize(
    ("before", "after", "context"),
    [
        ("housed in Represa, ", ". Mr. Graham", (",", "stop")),
        ("Any family outside ", "?\nANDREW", ("outside", "stop")),
        ("parole to ", " first.", ("to", "word")),
        ("BARSTOW, ", ", ATTENTION", (",", "comma")),
        ("FOLSOM STATE PRISON\nREPRESA, ", "\nDECEMBER", (",", "line")),
        ("PRISON\n", " STATE", ("^", "word")),
        ("", "", ("^", "line")),
        ("at 4410 ", " Ports", ("#", "word")),
        ("I'm ", " 47", ("i'm", "digit")),
        ("the (", ") and", ("(", "other")),
    ],
)
def test_a_mentions_context_is_the_previous_word_or_sign_and_the_class_of_what_follows(
    before, after, context
):
    assert context_of(before, after) == context


def test_the_database_cuts_the_same_context_as_the_text_does():
    text = "California, at the start. " + "x" * 40 + " and a long way later in Represa, California."
    t = approved_in_context(
        text,
        [
            ("California, at", "California", "LOCATION", "rejected"),
            ("Represa, California", "California", "LOCATION", "rejected"),
        ],
    )
    expected = {
        ("LOCATION", "california", *context_in(t.text, s.start, s.end))
        for s in Span.objects.filter(transcript=t)
    }
    assert expected == {("LOCATION", "california", "^", "comma"),
                        ("LOCATION", "california", ",", "stop")}  # fmt: skip
    assert set(votes_by_level()[1]) == expected


def test_a_reversed_context_rejection_counts_as_kept_in_that_context(words, annotator):
    for _ in range(2):
        approved_in_context(*CALIFORNIA_KEPT_AND_REJECTED)
    t = annotated("QUILL: No family outside California?")
    span = span_of(t, "California")
    assert is_carried(span.provenance)
    t.assignees.add(annotator)
    workflow.transcript_start_review(transcript=t, actor=annotator)
    span_accept(span=span, actor=annotator)  # one action decides against it
    assert Span.objects.get(pk=span.pk).status == Span.Status.ACCEPTED
    t.state = APPROVED
    t.save(update_fields=["state"])
    # rejected in 2 of 3 hearings in that context: below the share, it stops carrying
    assert ("LOCATION", "california", "outside", "stop") not in carried_context_decisions()
