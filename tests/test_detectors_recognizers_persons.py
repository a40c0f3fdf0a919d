"""Speaker tags and forms of address (recognizers/persons.py)."""

import pytest

from engine.detectors.recognizers.persons import (
    PartyNameRecognizer,
    SpeakerTagRecognizer,
    speaker_tag_names,
)


def names(text):
    return [text[f.start : f.end] for f in SpeakerTagRecognizer().find_all(text)]


@pytest.mark.parametrize(
    "tag,expected",
    [
        ("MR. LONG: Thank you.", ["LONG"]),
        ("CHIEF JUSTICE ROBERTS: We will hear argument.", ["ROBERTS"]),
        ("PRESIDING COMMISSIONER YOUNG: Okay.", ["YOUNG"]),
        ("INCARCERATED PERSON BLACK: Yes.", ["BLACK"]),
        ("DEPUTY DISTRICT ATTORNEY ROSE SMITH: Yes.", ["ROSE", "SMITH"]),
        ("MITCHELL: Right here.", ["MITCHELL"]),
        ("THE COURT: Proceed.", []),
        ("JUROR NO. 5: Yes.", []),
        ("COURT SECURITY OFFICER: All rise.", []),
        ("APPEARANCES:\n", []),
        ("THE FOREPERSON: We have.", []),
    ],
)
def test_the_name_part_of_a_speaker_tag_is_a_person_and_titles_and_roles_are_not(tag, expected):
    assert [tag[s:e] for s, e in speaker_tag_names(tag)] == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Did pellegrino -- Mr. pellegrino, that's P as in Paul", ["pellegrino"]),
        ("Mr. and Mrs. Okafor came.", ["Okafor"]),
        ("Ms. Tyrell Okafor said so.", ["Tyrell Okafor"]),
        ("Thank you, Mr. Chief Justice.", []),
        ("I miss my family.", []),
    ],
)
def test_a_word_after_an_honorific_is_a_name_in_any_case(text, expected):
    assert names(text) == expected


def test_a_title_before_a_word_that_is_no_english_word_is_a_name():
    text = "General Prelogar argued. The General Counsel and Justice Sotomayor spoke."
    assert names(text) == ["Prelogar", "Sotomayor"]


def party_names(text):
    return [(text[f.start : f.end], f.pattern) for f in PartyNameRecognizer().find_all(text)]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("a quote from Lord Dorvish and the Admiralty", [("Dorvish", "title-run")]),
        (
            "STATEMENT BY GEN. DORA K. OKONKWO FOR THE AGENCY",
            [("DORA", "title-run"), ("OKONKWO", "title-run")],
        ),
        (
            "signed by the Hon. Dora Varga-Lind today",
            [("Dora", "title-run"), ("Varga-Lind", "title-run")],
        ),
        (
            "for the respondents Grant and Dorna McTavish.",
            [("Grant", "party-name"), ("Dorna", "party-name"), ("McTavish", "party-name")],
        ),
        ("Juror Okonkwo, you may sit.", [("Okonkwo", "party-name")]),
        (
            "They found the victim, Dorna Tembley, at home.",
            [("Dorna", "party-name"), ("Tembley", "party-name")],
        ),
        (
            "in Tembley v. Overholt the court",
            [("Tembley", "case-party"), ("Overholt", "case-party")],
        ),
        ("as in Baker versus Okonkwo", [("Baker", "case-party"), ("Okonkwo", "case-party")]),
        ("see In re Tembley", [("Tembley", "case-party")]),
        (
            'with Dorian "Dodo" Tembley, arguing',
            [("Dorian", "nickname"), ("Dodo", "nickname"), ("Tembley", "nickname")],
        ),
        # a surname as frequent in English text as many words (Zipf 3.1) after a given name
        (
            'got me into it was Mitchell "Mitm" Nicholls.',
            [("Mitchell", "nickname"), ("Mitm", "nickname"), ("Nicholls", "nickname")],
        ),
    ],
)
def test_names_that_a_title_a_role_a_case_or_a_nickname_makes_names(text, expected):
    assert party_names(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "the defendant Acme Corp. moved to dismiss",  # a firm
        "Tembley v. United States",  # the public party (Tembley only)
        "Department of Labor v. Oregon",  # a body and a state
        "New Mexico v. Tembley",  # a state of two words (Tembley only)
        "Praise the Lord Jesus.",  # not a person of the transcript
        "Thank the Lord Almighty.",  # an English word after a peerage title
        "the witness The",
        "the victim Impact statement",  # an English word after a role
        "Varga's motion",  # no neighbour at all
        'Mitchell "Mitm" Said',  # an everyday word after the nickname
    ],
)
def test_firms_bodies_states_and_english_words_are_no_party_names(text):
    assert [w for w, _ in party_names(text)] in ([], ["Tembley"])


@pytest.mark.parametrize(
    "text,expected",
    [
        ("HEARING OF: MARCUS TEMBLEY )", ["MARCUS", "TEMBLEY"]),
        ("ATTENTION DORA B. OKONKWO, RECORDS OFFICE", ["DORA", "OKONKWO"]),
        ("STATE PRISON SAN JUAN CAPISTRANO, CALIFORNIA", []),  # a place
        ("THE BOARD MAY MODIFY THIS DECISION", []),
        ("YOLO COUNTY", []),
        ("DEPUTY COMMISSIONER", []),
    ],
)
def test_a_full_name_in_capitals_is_a_given_name_and_a_surname_not_a_place_or_boilerplate(
    text, expected
):
    from engine.detectors.recognizers.capitals import caps_full_names

    assert [text[s:e] for s, e in caps_full_names(text)] == expected


# --- Names glued to page furniture, names that are English words -------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("the crime. ROSE TEMBLEY B-12345 DECISION PAGE 9 11/23/09", ["ROSE", "TEMBLEY"]),
        ("the crime. SUMMER DAY B-12345 DECISION PAGE 9", ["SUMMER", "DAY"]),
        ("the record. APRIL OKONKWO V-44120 3/2/05", ["APRIL", "OKONKWO"]),
    ],
)
def test_a_name_in_capitals_before_an_id_number_is_a_footer_name(text, expected):
    assert [w for w, _ in party_names(text)] == expected


@pytest.mark.parametrize(
    "text", ["CDC NUMBER B-12345", "THE STATE P12345", "LIFE PRISONER B-12345", "AND ROSE P12345"]
)
def test_id_words_and_titles_before_a_number_are_no_footer_name(text):
    assert party_names(text) == []


def test_a_surname_that_is_an_english_word_stays_in_a_run_after_a_role():
    assert party_names("The trustee Oyeyemi Ho signed it.") == [
        ("Oyeyemi", "party-name"),
        ("Ho", "party-name"),
    ]


def test_what_a_speaker_says_their_name_is_and_a_spaced_spelling_after_a_word():
    from engine.detectors.recognizers.persons import PersonContextRecognizer

    text = "My name is Summer Little, L I T T L E. And Ho, H O."
    found = {text[f.start : f.end]: f.pattern for f in PersonContextRecognizer().find_all(text)}
    assert found == {"Summer Little": "name-is", "Little": "spelled-after", "Ho": "spelled-after"}


def test_a_role_word_that_is_a_common_surname_is_the_name_after_an_honorific():
    from engine.detectors.base import Detection
    from engine.detectors.clean import clean

    def kept(text):
        found = SpeakerTagRecognizer().find_all(text)
        detections = [
            Detection(f.start, f.end, "PERSON", 0.9, "patterns", f.pattern) for f in found
        ]
        return [text[d.start : d.end] for d in clean(text, detections)]

    assert kept("A chrono from Ms. Cross says you helped.") == ["Cross"]
    assert kept("MS. CROSS: Yes.") == ["CROSS"]
    assert kept("Mr. Chief Justice, may it please the Court.") == []
    assert kept("Thank you, Mr. Vice President.") == []


def test_a_title_word_ending_a_sentence_does_not_make_the_next_sentences_word_a_name():
    from engine.detectors.recognizers.persons import PersonContextRecognizer

    text = "A: I had to tell the officer. Fine, he said. Then Sgt. Vance and Officer Tembley came."
    found = [text[f.start : f.end] for f in PersonContextRecognizer().find_all(text)]
    assert "Fine" not in found
    assert {"Vance", "Tembley"} <= set(found)


def test_a_given_name_alone_in_capitals_is_found_before_its_possessive_and_summer_is_one():
    from engine.detectors.recognizers.persons import caps_given_names

    text = "A. My cousin. SUMMER's car was parked outside. Was SUMMER there? HOPE's too."
    assert [text[s:e] for s, e in caps_given_names(text)] == ["SUMMER", "SUMMER", "HOPE"]
    text = "A. IT'S the rule, we said, and nobody minded it."
    assert caps_given_names(text) == []
