"""The forms table's "→ LABEL" hint is offered where it is more often right than wrong: a
lone model's dissent yields to what the words say where the mention stands (a rule's
reading, a title before a name, a place's preposition), to the form's own shape (a street,
an address, a web address), and to the majority of its mentions; the team's relabel habit
only where reviewers moved the label more often than they kept it. Generated-like
sentences; every name made up."""

import re

import pytest

from annotations.models import Span
from annotations.selectors.forms import form_alternatives, relabel_habits, review_form_table
from tests.factories import make_transcript

TEXT = "\n".join(
    [
        "WITNESS: I got letters from Hanford every week.",
        "WITNESS: She lives on Allen Court now.",
        "MR. PARK: How long have you known Mr. Wellby?",
        "WITNESS: Later she moved out to Delvaro, but we still talk.",
        "WITNESS: The link is https://www.example.com/watch?v=x7Qz, and the page embeds it.",
        "WITNESS: Edward Church and a friend of hers, I think.",
        "WITNESS: I'm a dispatcher at Coppervale. Coppervale is a distributor.",
        "WITNESS: Coppervale pays on Fridays.",
        "WITNESS: We stopped at Marlowe Junction and kept going.",
    ]
)
# (words, the machine's label, a model's dissenting label or "")
MENTIONS = (
    ("Hanford", "LOCATION", "ORGANIZATION"),
    ("Allen Court", "LOCATION", "PERSON"),
    ("Wellby", "PERSON", "LOCATION"),
    ("Delvaro", "LOCATION", "PERSON"),
    ("https://www.example.com/watch?v=x7Qz", "URL", "PERSON"),
    ("Edward Church", "ORGANIZATION", "PERSON"),
    ("Coppervale", "ORGANIZATION", ""),
    ("Marlowe Junction", "ORGANIZATION", "LOCATION"),
)


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def _hints(annotator, *, dissent_on: dict | None = None) -> dict:
    t = make_transcript(TEXT, assignees=[annotator])
    for words, label, other in MENTIONS:
        for i, m in enumerate(re.finditer(re.escape(words), TEXT)):
            voices = [{"detector": "spacy", "score": 0.8}]
            if other and (dissent_on is None or i in dissent_on.get(words, ())):
                voices.append({"detector": "transformer", "score": 0.7, "label": other})
            Span.objects.create(
                transcript=t, start=m.start(), end=m.end(), label=label, provenance=voices
            )
    table = review_form_table(transcript=t)
    form_alternatives(transcript=t, table=table)
    return {f.form: f.alternative for forms in table.values() for f in forms}


def test_a_town_a_street_and_a_name_after_a_title_keep_their_label(annotator):
    hints = _hints(annotator)
    assert hints["Hanford"] == ""  # "letters from Hanford": a rule reads a town there
    assert hints["Allen Court"] == ""  # a street, never a person
    assert hints["Wellby"] == ""  # "Mr. Wellby": a person
    assert hints["Delvaro"] == ""  # "moved out to Delvaro": a place, not a person
    assert hints["https://www.example.com/watch?v=x7Qz"] == ""  # a pattern's find


def test_a_dissent_nothing_in_the_words_contradicts_is_still_offered(annotator):
    hints = _hints(annotator)
    # a given name before a surname that is also an institution's word: a person
    assert hints["Edward Church"] == "PERSON"
    assert hints["Marlowe Junction"] == "LOCATION"


def test_a_dissent_on_a_minority_of_the_mentions_is_not_offered(annotator):
    hints = _hints(annotator, dissent_on={"Marlowe Junction": (0,)})
    assert hints["Marlowe Junction"] == "LOCATION"  # one mention, one dissent
    t = make_transcript(TEXT + "\nWITNESS: Marlowe Junction again.\nWITNESS: Marlowe Junction.")
    for i, m in enumerate(re.finditer("Marlowe Junction", t.text)):
        voices = [{"detector": "spacy", "score": 0.8}]
        if i == 0:
            voices.append({"detector": "transformer", "score": 0.7, "label": "LOCATION"})
        Span.objects.create(
            transcript=t, start=m.start(), end=m.end(), label="ORGANIZATION", provenance=voices
        )
    table = review_form_table(transcript=t)
    form_alternatives(transcript=t, table=table)
    assert table["ORGANIZATION"][0].alternative == ""  # 1 of 3


def test_a_habit_counts_only_where_reviewers_moved_the_label_more_than_they_kept_it(
    annotator,
):
    from annotations.services.review import spans_accept_form, spans_relabel_form

    text = "\n".join(["WITNESS: Quillon and Quillon and Quillon."] + ["WITNESS: Varna."] * 4)
    other = make_transcript(text, assignees=[annotator])
    for word in ("Quillon", "Varna"):
        for m in re.finditer(word, text):
            Span.objects.create(transcript=other, start=m.start(), end=m.end(), label="LOCATION")
    spans_relabel_form(
        transcript=other, actor=annotator, label="LOCATION", form="quillon", to="PERSON"
    )
    assert relabel_habits() == {"LOCATION": ("PERSON", 3)}
    spans_accept_form(transcript=other, actor=annotator, label="LOCATION", form="varna")
    assert relabel_habits() == {}  # 4 kept against 3 moved
