"""Public terms (courts, bodies, laws, programmes, instruments, titles, boilerplate) are
not personal data: the cleaning drops the models' guesses on them, and keeps places and
local institutions, which locate a person."""

import re

import pytest

from engine.detectors.base import Detection
from engine.detectors.clean import clean
from engine.detectors.public import is_title_or_role, public_terms


def det(text, needle, label, detector="spacy", explanation="ORG", nth=0):
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Detection(start, start + len(needle), label, 0.85, detector, explanation)


def kept(text, detections):
    return [text[d.start : d.end] for d in clean(text, detections)]


@pytest.mark.parametrize(
    "text,needle,label",
    [
        ("The Supreme Court held that Congress may tax.", "Supreme Court", "ORGANIZATION"),
        ("The Supreme Court held that Congress may tax.", "Congress", "ORGANIZATION"),
        ("under the Internal Revenue Code today", "Internal Revenue Code", "ORGANIZATION"),
        ("the Department of Justice says", "Department of Justice", "ORGANIZATION"),
        ("in the United States District Court for", "United States District Court", "ORGANIZATION"),
        ("the Federal Judicial Center's video", "Federal Judicial Center", "ORGANIZATION"),
        ("We read the Legal Status Summary.", "Legal Status Summary", "ORGANIZATION"),
        (
            "he worked for the Prison Industry Authority",
            "Prison Industry Authority",
            "ORGANIZATION",
        ),
        ("a score on the PCL-R of", "PCL-R", "ORGANIZATION"),
        (
            "the Americans with Disabilities Act review",
            "Americans with Disabilities Act",
            "ORGANIZATION",
        ),
        ("Petition in Case No. 11-393 today", "11-393", "TIME"),
        ("under Penal Code section 3041 we", "3041", "DATE"),
    ],
)
def test_public_institutions_laws_and_instruments_are_not_personal_data(text, needle, label):
    assert kept(text, [det(text, needle, label)]) == []


@pytest.mark.parametrize(
    "text,needle,label",
    [
        ("CHIEF JUSTICE ROBERTS: We will hear", "CHIEF JUSTICE", "PERSON"),
        ("JOHN DOE, ESQ., for the petitioner", "ESQ.", "ORGANIZATION"),
        ("MR. LONG: Thank you.", "MR.", "LOCATION"),
        ("Deputy Commissioner, go ahead.", "Deputy Commissioner", "ORGANIZATION"),
    ],
)
def test_titles_and_roles_are_no_names_places_or_bodies(text, needle, label):
    assert kept(text, [det(text, needle, label)]) == []


def test_an_ordinary_word_in_all_capitals_boilerplate_is_no_body_but_a_name_there_is():
    text = (
        "THE BOARD MAY MODIFY THIS DECISION, AND THE GOVERNOR MAY REVIEW IT IN THE MATTER OF "
        "OKAFOR PELLEGRINO.\n"
    )
    out = kept(
        text,
        [det(text, "MODIFY", "ORGANIZATION"), det(text, "OKAFOR PELLEGRINO", "PERSON")],
    )
    assert out == ["OKAFOR", "PELLEGRINO"]


def test_local_institutions_and_places_inside_a_body_name_are_kept():
    text = "He was held at the Stockton Police Department by the Office of the District Attorney of Tulare County."
    out = kept(
        text,
        [
            det(text, "Stockton Police Department", "ORGANIZATION", "presidio", "Org"),
            det(text, "Tulare County", "LOCATION", "presidio", "CountyRecognizer"),
        ],
    )
    assert out == ["Stockton Police Department", "Tulare County"]


def test_the_board_and_the_panel_stay_readable_roles():
    assert is_title_or_role("the Panel") and is_title_or_role("THE COURT")
    assert not is_title_or_role("Roberts")


def test_a_lexicon_acronym_counts_only_in_capitals():
    text = "PIA work, then pia in lower case"
    kinds = [text[s:e] for s, e, _ in public_terms(text).regions]
    assert kinds == ["PIA"]


def test_a_given_name_a_model_calls_a_body_is_a_person_but_a_company_word_is_not():
    text = "In fact Debbie started it. Kaiser hired him."
    out = clean(
        text,
        [det(text, "Debbie", "ORGANIZATION"), det(text, "Kaiser", "ORGANIZATION")],
    )
    assert [(text[d.start : d.end], d.label) for d in out] == [
        ("Debbie", "PERSON"),
        ("Kaiser", "ORGANIZATION"),
    ]


# --- Titles of the Crown and Commonwealth courts -----------------------------


@pytest.mark.parametrize(
    "text, term",
    [
        ("Her Majesty the Queen v. Okafor", "Her Majesty the Queen"),
        ("the Court of Appeal for Ontario held", "Court of Appeal for Ontario"),
        ("the Court of Appeal (Criminal Division) said", "Court of Appeal (Criminal Division)"),
        ("tried at the Crown Court in 2001", "the Crown Court"),
        ("counsel for the Crown argued", "the Crown"),
        ("the Court of Appeal for Ontario and Her Majesty the Queen", "Her Majesty the Queen"),
    ],
)
def test_crown_titles_and_commonwealth_courts_are_public_terms(text, term):
    start = text.index(term)
    assert public_terms(text).inside(start, start + len(term))


def test_the_queen_as_a_case_party_is_no_person():
    text = "Her Majesty the Queen v. Okafor was decided."
    kept = clean(
        text,
        [
            det(text, "Queen", "PERSON", "patterns", "case-party"),
            det(text, "Okafor", "PERSON", "patterns", "case-party"),
        ],
    )
    assert [text[d.start : d.end] for d in kept] == ["Okafor"]


@pytest.mark.parametrize(
    "text,needle,label",
    [
        ("I'm a porter on Facility D. I work nights.", "Facility D. I", "ORGANIZATION"),
        ("I'm a peer mentor on Facility B.", "Facility B", "PERSON"),
        ("He moved to B Yard in 2019.", "B Yard", "LOCATION"),
        ("HOUSED ON FACILITY C SINCE", "FACILITY C", "ORGANIZATION"),
    ],
)
def test_a_prisons_yard_named_by_its_letter_locates_no_one(text, needle, label):
    assert kept(text, [det(text, needle, label)]) == []


def test_the_yard_letter_does_not_make_a_prisons_name_public():
    text = "He was at Correctional Training Facility and then on Facility A."
    assert kept(text, [det(text, "Correctional Training Facility", "ORGANIZATION")]) == [
        "Correctional Training Facility"
    ]


@pytest.mark.parametrize(
    "text,trade",
    [
        ("You completed the Office Services vocation?", "Office Services"),
        ("Yes. I finished Carpentry on 01/13/2022.", "Carpentry"),
        ("He is in Small Engine Repair and Machine Shop.", "Small Engine Repair"),
        ("He is in Small Engine Repair and Machine Shop.", "Machine Shop"),
    ],
)
def test_a_career_technical_education_trade_is_a_public_programme(text, trade):
    assert public_terms(text).inside(text.index(trade), text.index(trade) + len(trade))
    assert kept(text, [det(text, trade, "ORGANIZATION")]) == []


# --- public terms a court transcript names beyond a hearing ---------------------------


def test_agencies_statutes_products_and_parties_of_the_generator_are_public_in_every_family():
    from engine.synthetic import generate_hearing
    from engine.synthetic.families import family_document

    docs = [generate_hearing(3741, words=1200)] + [
        family_document(3741 + i, family, words=1200)
        for i, family in enumerate(("federal", "appellate", "grand_jury", "deposition"), 1)
    ]
    for doc in docs:
        text, hard = doc.gold.text, doc.hard_cases
        regions = public_terms(text).regions
        for start, end in hard["public_national_term"]:
            for word in re.finditer(r"\b(?!the\b)\w[\w'-]*", text[start:end]):
                s, e = start + word.start(), start + word.end()
                assert any(r[0] <= s and e <= r[1] for r in regions), (text[start:end], word[0])


def test_a_product_in_a_web_address_is_no_public_term():
    text = "See https://www.facebook.com/x1y2z3 and Facebook, or write to fbi@example.org."
    regions = [text[r[0] : r[1]] for r in public_terms(text).regions]
    assert regions == ["Facebook"]
