"""Decisions that carry (issue 30): a form rejected or relabelled in approved hearings is
offered the same way in a new one, with its provenance, and never hides a name the new
transcript gives."""

import re

import pytest
from django.urls import reverse

from annotations.selectors.carried import carried_decisions
from annotations.selectors.forms import form_alternatives, review_form_table
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
        ("HOPE: Good morning.\nALDEN: Hope, sit down.", {}),  # a speaker tag
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
