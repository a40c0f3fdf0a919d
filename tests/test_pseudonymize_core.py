"""The paper's categorical tags (Itani, Siskou & Hautli-Janisz), with synthetic names.

The examples reconstruct the structure of the paper's examples (1)-(3) and the
Appendix A step-4 output: a full name then the surname alone, a spelled name after and
before the plain name, a CDCR number spoken and written, a date split into its parts.
"""

import re

import pytest

from engine.pseudonymize import (
    MASK,
    PseudonymizedText,
    SpanInput,
    key_from_replacements,
    pseudonymize,
)


def spans_for(text: str, *marks: tuple[str, str] | tuple[str, str, int]) -> list[SpanInput]:
    """SpanInputs for (substring, label[, occurrence]) marks; occurrence counts from 1."""
    out = []
    for mark in marks:
        needle, label = mark[0], mark[1]
        nth = mark[2] if len(mark) > 2 else 1
        starts = [m.start() for m in re.finditer(re.escape(needle), text)]
        start = starts[nth - 1]
        out.append(SpanInput(start, start + len(needle), label, span_id=len(out) + 1))
    return out


def tags(text: str, *marks) -> str:
    return pseudonymize(text, spans_for(text, *marks)).text


def test_example_1_full_name_then_surname_alone_with_title_kept():
    text = "My name is John Quill. Mr. Quill's file is here."
    out = tags(text, ("John", "PERSON"), ("Quill", "PERSON", 1), ("Quill", "PERSON", 2))
    assert out == "My name is [PERSON_1] [PERSON_2]. Mr. [PERSON_2]'s file is here."


def test_whole_name_span_is_split_into_name_parts():
    text = "John Quill met Mr. Quill's lawyer, Dr. Ann Alden."
    out = tags(
        text, ("John Quill", "PERSON"), ("Mr. Quill's", "PERSON"), ("Dr. Ann Alden", "PERSON")
    )
    assert out == "[PERSON_1] [PERSON_2] met Mr. [PERSON_2]'s lawyer, Dr. [PERSON_3] [PERSON_4]."


def test_names_in_speaker_tags_share_the_ref_case_insensitively():
    text = "PRESIDING COMMISSIONER ALDEN: Good morning, Mr. Quill.\nINMATE QUILL: Good morning, Commissioner Alden."
    out = tags(
        text,
        ("ALDEN", "PERSON"),
        ("Quill", "PERSON"),
        ("QUILL", "PERSON"),
        ("Alden", "PERSON"),
    )
    assert out == (
        "PRESIDING COMMISSIONER [PERSON_1]: Good morning, Mr. [PERSON_2].\n"
        "INMATE [PERSON_2]: Good morning, Commissioner [PERSON_1]."
    )


def test_example_2_spelled_name_after_the_plain_name():
    text = "State your name. Jonah Quill, Q-U-I-L-L."
    out = tags(text, ("Jonah", "PERSON"), ("Quill", "PERSON"), ("Q-U-I-L-L", "SPELLED_NAME"))
    assert out == "State your name. [PERSON_1] [PERSON_2], [SPELLED_NAME_PERSON_2]."


def test_spelled_name_before_the_plain_name_links_to_it():
    text = "Spell it for the record. A-L-D-E-N. Thank you, Ms. Alden. Jonah Quill is here."
    out = tags(
        text,
        ("A-L-D-E-N", "SPELLED_NAME"),
        ("Alden", "PERSON"),
        ("Jonah", "PERSON"),
        ("Quill", "PERSON"),
    )
    assert out == (
        "Spell it for the record. [SPELLED_NAME_PERSON_1]. Thank you, Ms. [PERSON_1]. "
        "[PERSON_2] [PERSON_3] is here."
    )


def test_spelled_name_with_one_letter_off_still_links():
    text = "Ms. Aldenn. That is A-L-D-E-N."
    assert tags(text, ("Aldenn", "PERSON"), ("A-L-D-E-N", "SPELLED_NAME")) == (
        "Ms. [PERSON_1]. That is [SPELLED_NAME_PERSON_1]."
    )


def test_example_3_cdcr_number_spoken_and_written_is_one_id():
    text = "CDCR number Victor 12345. Is V12345 correct? Yes, V-1-2-3-4-5. Not W98765."
    out = tags(
        text,
        ("Victor 12345", "CDCR_ID"),
        ("V12345", "CDCR_ID"),
        ("V-1-2-3-4-5", "CDCR_ID"),
        ("W98765", "CDCR_ID"),
    )
    assert out == "CDCR number [ID_1]. Is [ID_1] correct? Yes, [ID_1]. Not [ID_2]."


def test_date_is_split_into_month_day_year():
    text = "It happened on May 13, 2012."
    assert tags(text, ("May 13, 2012", "DATE")) == "It happened on [MONTH] [DAY], [YEAR]."


def test_appendix_a_step_4_output():
    text = (
        "DEPUTY COMMISSIONER ALDEN: This is the hearing of Jonah Quill, CDCR number Victor 12345.\n"
        "INMATE QUILL: Yes. Quill, Q-U-I-L-L.\n"
        "DEPUTY COMMISSIONER ALDEN: Today is Tuesday, May 13, 2012, at 9:05 a.m. at Mule Creek "
        "State Prison in Stockton, California. You were 23 and five foot ten. Your number is V12345.\n"
    )
    out = tags(
        text,
        ("ALDEN", "PERSON", 1),
        ("Jonah", "PERSON"),
        ("Quill", "PERSON", 1),
        ("Victor 12345", "CDCR_ID"),
        ("QUILL", "PERSON"),
        ("Quill", "PERSON", 2),
        ("Q-U-I-L-L", "SPELLED_NAME"),
        ("ALDEN", "PERSON", 2),
        ("Tuesday, May 13, 2012", "DATE"),
        ("9:05 a.m.", "TIME"),
        ("Mule Creek State Prison", "ORGANIZATION"),
        ("Stockton", "LOCATION"),
        ("California", "LOCATION"),
        ("23", "AGE", 2),
        ("five foot ten", "HEIGHT"),
        ("V12345", "CDCR_ID"),
    )
    assert out == (
        "DEPUTY COMMISSIONER [PERSON_1]: This is the hearing of [PERSON_2] [PERSON_3], CDCR "
        "number [ID_1].\n"
        "INMATE [PERSON_3]: Yes. [PERSON_3], [SPELLED_NAME_PERSON_3].\n"
        "DEPUTY COMMISSIONER [PERSON_1]: Today is [DAY_OF_WEEK], [MONTH] [DAY], [YEAR], at "
        "[TIME] at [PRISON_1] in [CITY_1], [STATE_1]. You were [AGE] and [HEIGHT_1]. Your "
        "number is [ID_1].\n"
    )


@pytest.mark.parametrize(
    ("label", "mention", "expected"),
    [
        ("PHONE_NUMBER", "(555) 010-0199", "[PHONE_NUMBER_1]"),
        ("EMAIL_ADDRESS", "jq@example.org", "[EMAIL_ADDRESS_1]"),
        ("URL", "https://example.org/q", "[URL_1]"),
        ("SPELLED_OUT_ITEM", "K-9-X", "[SPELLED_OUT_ITEM_1]"),
        ("HEIGHT", "6'1\"", "[HEIGHT_1]"),
        ("TIME", "10:30", "[TIME]"),
        ("AGE", "forty", "[AGE]"),
        ("NRP", "Catholic", "[RELIGION_1]"),
        ("NRP", "Mexican", "[NATIONALITY_1]"),
        ("NRP", "Republican", "[POLITICAL_GROUP_1]"),
        ("LOCATION", "Fresno County", "[COUNTY_1]"),
        ("LOCATION", "Mexico", "[COUNTRY_1]"),
        ("LOCATION", "1200 Oak Street", "[ADDRESS_1]"),
        ("ORGANIZATION", "Fresno County Jail", "[JAIL_1]"),
        ("ORGANIZATION", "Fresno Police Department", "[POLICE_DEPARTMENT_1]"),
        ("ORGANIZATION", "Valley Hospital", "[HOSPITAL_1]"),
        ("ORGANIZATION", "Roosevelt High School", "[SCHOOL_1]"),
    ],
)
def test_each_label_has_its_paper_tag(label, mention, expected):
    text = f"A {mention} B"
    out = pseudonymize(text, [SpanInput(2, 2 + len(mention), label)])
    assert out.text == f"A {expected} B"


def test_counters_follow_first_occurrence_and_repeat_for_the_same_key():
    text = "(555) 010-0100 then 555.010.0199 then 555-010-0100"
    spans = spans_for(
        text,
        ("(555) 010-0100", "PHONE_NUMBER"),
        ("555.010.0199", "PHONE_NUMBER"),
        ("555-010-0100", "PHONE_NUMBER"),
    )
    assert pseudonymize(text, spans).text == (
        "[PHONE_NUMBER_1] then [PHONE_NUMBER_2] then [PHONE_NUMBER_1]"
    )


def test_spans_at_text_start_and_end_and_adjacent():
    text = "Quill,Alden"
    spans = [SpanInput(0, 5, "PERSON", span_id="a"), SpanInput(6, 11, "PERSON", span_id="b")]
    out = pseudonymize(text, spans)
    assert out.text == "[PERSON_1],[PERSON_2]"
    first, second = out.replacements
    assert (first.start, first.end, first.out_start, first.out_end) == (0, 5, 0, 10)
    assert (second.start, second.end, second.out_start, second.out_end) == (6, 11, 11, 21)
    assert out.text[second.out_start : second.out_end] == "[PERSON_2]"


def test_directly_adjacent_spans_without_a_gap():
    text = "Quill12345"
    out = pseudonymize(text, [SpanInput(0, 5, "PERSON"), SpanInput(5, 10, "PHONE_NUMBER")])
    assert out.text == "[PERSON_1][PHONE_NUMBER_1]"


def test_replacement_offsets_locate_each_replacement_in_the_output():
    text = "Hi John Quill, born May 13, 2012, Victor 12345."
    spans = spans_for(
        text,
        ("John", "PERSON"),
        ("Quill", "PERSON"),
        ("May 13, 2012", "DATE"),
        ("Victor 12345", "CDCR_ID"),
    )
    out = pseudonymize(text, spans)
    for r in out.replacements:
        assert out.text[r.out_start : r.out_end] == r.replacement
        assert r.span_id is not None


def test_overlapping_spans_keep_the_longer_one():
    text = "at Mule Creek State Prison today"
    spans = [SpanInput(3, 26, "ORGANIZATION", span_id=1), SpanInput(3, 13, "LOCATION", span_id=2)]
    out = pseudonymize(text, spans)
    assert out.text == "at [PRISON_1] today"
    assert [r.span_id for r in out.replacements] == [1]


def test_given_refs_are_kept_and_new_refs_do_not_collide():
    text = "Quill and Alden and Reyes"
    spans = [
        SpanInput(0, 5, "PERSON", ref="PERSON_4", span_id=1),
        SpanInput(10, 15, "PERSON", span_id=2),
        SpanInput(20, 25, "PERSON", ref="PERSON_4", span_id=3),  # merged by a reviewer
    ]
    assert pseudonymize(text, spans).text == "[PERSON_4] and [PERSON_5] and [PERSON_4]"


def test_mask_and_redact():
    text = "Mr. Quill, V12345."
    spans = spans_for(text, ("Quill", "PERSON"), ("V12345", "CDCR_ID"))
    assert pseudonymize(text, spans, strategy="mask").text == f"Mr. {MASK}, {MASK}."
    redacted = pseudonymize(text, spans, strategy="redact")
    assert redacted.text == "Mr. , ."
    assert all(r.out_start == r.out_end for r in redacted.replacements)


def test_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="unknown strategy"):
        pseudonymize("x", [], strategy="shuffle")


def test_no_spans_returns_the_text_unchanged():
    assert pseudonymize("Nothing here.", []) == PseudonymizedText("Nothing here.", [])


def test_key_maps_each_ref_to_its_originals():
    text = "John Quill. Mr. QUILL. Q-U-I-L-L."
    spans = spans_for(
        text,
        ("John", "PERSON"),
        ("Quill", "PERSON"),
        ("QUILL", "PERSON"),
        ("Q-U-I-L-L", "SPELLED_NAME"),
    )
    key = key_from_replacements(text, pseudonymize(text, spans))
    assert key["PERSON_2"] == {
        "label": "PERSON",
        "pseudonym": "[PERSON_2]",
        "originals": ["Quill", "QUILL"],
    }
    assert key["SPELLED_NAME_PERSON_2"]["originals"] == ["Q-U-I-L-L"]


def test_by_span_id_joins_the_parts_of_a_split_name():
    text = "John Quill"
    out = pseudonymize(text, [SpanInput(0, 10, "PERSON", span_id=7)])
    assert out.by_span_id() == {7: "[PERSON_1] [PERSON_2]"}
