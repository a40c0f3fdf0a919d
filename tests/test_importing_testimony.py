"""Question-and-answer testimony (engine/importing/testimony.py): each question and each
answer is one utterance, with the examiner and the witness as speakers (made-up text and
the generator's grand jury and deposition families)."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from engine.importing import parse_pdf, parse_text
from engine.importing.layout import is_speaker_line
from engine.importing.testimony import qa_mode
from engine.synthetic import generate_hearing
from engine.synthetic.families import family_document
from engine.synthetic.family_render import render_pdf, render_text


def _turns(text: str) -> list[tuple[str, str]]:
    parsed = parse_text(text.encode())
    return [
        (u.speaker, parsed.text[u.start : u.end].partition(": ")[2] if u.speaker else "")
        for u in parsed.utterances
    ]


def _lines(text: str) -> list[str]:
    return parse_text(text.encode()).text.split("\n")


GRAND_JURY = """PROCEEDINGS
MS. DOE: Good morning. Our first witness is here.
JANE ROE, having been first duly sworn, testified as
follows:
EXAMINATION
BY MS. DOE:
Q And where were you then?
A At the corner, I think.
Q Who was with you?
A My cousin.
Q Did you see the car?
A No.
A JUROR: Was it raining that night?
A It was.
BY MR. POE:
Q Good afternoon. What time was it?
A Late.
"""


@pytest.mark.parametrize("kind", ["txt", "pdf"])
@pytest.mark.parametrize("family", ["grand_jury", "deposition"])
def test_generated_testimony_gives_one_utterance_per_question_and_answer(family, kind):
    # Before: bare "Q text" / "A text" lines ran into the examiner's paragraph.
    doc = family_document(9, family, words=1500)
    parsed = parse_text(render_text(doc).encode()) if kind == "txt" else parse_pdf(render_pdf(doc))
    printed_qa = [line for line in doc.body if line.startswith(("Q ", "A "))]
    turns = [(u.speaker, parsed.text[u.start : u.end]) for u in parsed.utterances if u.speaker]
    assert [s for s, _ in turns] == [s for s, _ in doc.turns]
    assert [t for _, t in turns] == [f"{s}: {t}" for s, t in doc.turns]
    assert len(printed_qa) > 40
    assert parsed.text == doc.gold.text


def test_the_question_is_the_examiners_from_the_last_by_line_and_the_answer_the_sworn_witness():
    turns = _turns(GRAND_JURY)
    assert ("MS. DOE", "And where were you then?") in turns
    assert ("JANE ROE", "At the corner, I think.") in turns
    assert ("MR. POE", "Good afternoon. What time was it?") in turns  # the examiner changed
    assert ("JANE ROE", "Late.") in turns
    assert sum(1 for s, _ in turns if s == "JANE ROE") == 5


def test_a_jurors_question_keeps_its_own_tag_and_the_answer_goes_to_the_witness():
    turns = _turns(GRAND_JURY)
    i = turns.index(("A JUROR", "Was it raining that night?"))
    assert turns[i + 1] == ("JANE ROE", "It was.")


@pytest.mark.parametrize("tag", ["A JUROR", "JUROR", "GRAND JUROR", "A GRAND JUROR"])
def test_each_juror_marking_stays_apart_from_the_prosecutor(tag):
    text = GRAND_JURY.replace("A JUROR:", f"{tag}:")
    parsed = parse_text(text.encode())
    juror = [u for u in parsed.utterances if u.speaker == tag]
    assert len(juror) == 1 and juror[0].role in ("Juror", "Grand Juror")


def test_a_swearing_in_sentence_printed_over_two_lines_is_one_line_and_names_the_witness():
    lines = _lines(GRAND_JURY)
    assert "JANE ROE, having been first duly sworn, testified as follows:" in lines
    parsed = parse_text(GRAND_JURY.encode())
    assert {u.role for u in parsed.utterances if u.speaker == "JANE ROE"} == {"Witness"}


def test_without_a_by_line_or_a_named_witness_the_speakers_are_q_and_the_witness():
    text = (
        "PROCEEDINGS\n(Witness sworn.)\nEXAMINATION\nQ Tell us your name.\nA Sam Poe.\n"
        "Q Where do you work?\nA At the mill.\n"
    )
    assert _turns(text)[-4:] == [
        ("Q", "Tell us your name."),
        ("THE WITNESS", "Sam Poe."),
        ("Q", "Where do you work?"),
        ("THE WITNESS", "At the mill."),
    ]


def test_a_new_witness_or_examination_forgets_the_examiner_and_the_witness():
    # Never a wrong name: after "(Witness sworn.)" the earlier examiner and witness are gone.
    text = GRAND_JURY + "(Witness excused.)\n(Witness sworn.)\nEXAMINATION\nQ Your name?\nA Al.\n"
    assert _turns(text)[-2:] == [("Q", "Your name?"), ("THE WITNESS", "Al.")]


def test_an_examination_heading_naming_the_examiner_sets_it():
    text = "EXAMINATION BY MR. POE\nQ Where?\nA Here.\nQ When?\nA Now.\n"
    assert _turns(text)[1:3] == [("MR. POE", "Where?"), ("THE WITNESS", "Here.")]


def test_a_bare_a_line_after_an_answer_continues_that_answer():
    text = (
        "EXAMINATION\nBY MS. DOE:\nQ What happened?\nA I was at home when the bell rang.\n"
        "A man came to the door.\nQ Then what?\nA Nothing.\n"
    )
    turns = _turns(text)
    assert (
        "THE WITNESS",
        "I was at home when the bell rang. A man came to the door.",
    ) in turns
    assert len(turns) == 6


def test_a_bare_q_line_continues_a_question_that_did_not_end():
    text = (
        "BY MS. DOE:\nQ Did you drive down\nQ Street that night?\nA Yes.\nQ Why?\nA Work.\n"
        "Q And then?\nA Home.\n"
    )
    assert ("MS. DOE", "Did you drive down Q Street that night?") in _turns(text)


def test_a_line_starting_with_the_word_a_in_a_hearing_without_testimony_stays_prose():
    text = (
        "PRESIDING COMMISSIONER ALDEN: Tell me what happened that day at the\n"
        "A store on the corner, please.\n"
        "INMATE ROOK: I went in and\n"
        "A man came in behind me.\n"
        "PRESIDING COMMISSIONER ALDEN: Go on.\n"
    )
    assert _lines(text) == [
        "PRESIDING COMMISSIONER ALDEN: Tell me what happened that day at the A store on the "
        "corner, please.",
        "INMATE ROOK: I went in and A man came in behind me.",
        "PRESIDING COMMISSIONER ALDEN: Go on.",
    ]


def test_qa_mode_needs_alternating_questions_and_answers_or_examination_marks():
    prose = ["A man came in.", "He sat down.", "A woman left.", "Q Street is long."]
    assert not qa_mode(prose)
    assert qa_mode(["Q One?", "A Yes.", "Q Two?", "A No.", "Q Three?", "A Maybe."])
    assert not qa_mode(["Q One?", "A Yes."])
    assert qa_mode(["BY MS. DOE:", "Q One?", "A Yes."])


def test_generated_hearings_are_not_read_as_testimony():
    hearing = generate_hearing(12, words=3000)
    assert not qa_mode(hearing.text.split("\n"))
    assert parse_text(hearing.text.encode()).text == hearing.text


def test_a_stage_direction_printed_over_two_lines_after_a_turn_is_its_own_line():
    text = (
        "THE COURT: We will take a break.\n(Whereupon, a recess was taken from 10:15 a.m.\n"
        "to 10:30 a.m.)\nTHE COURT: Back on the record.\n"
    )
    assert _lines(text)[1] == "(Whereupon, a recess was taken from 10:15 a.m. to 10:30 a.m.)"


def test_import_transcripts_dry_run_json_on_a_generated_grand_jury_volume(tmp_path, db):
    doc = family_document(14, "grand_jury", words=2000)
    path = tmp_path / "volume.txt"
    path.write_bytes(render_text(doc).encode())
    out = StringIO()
    call_command("import_transcripts", str(path), "--dry-run", "--json", stdout=out)
    result = json.loads(out.getvalue())["files"][0]
    lines = result["text"].split("\n")
    # One printed body line, one utterance: every "Q ..."/"A ..." line is a turn of its own.
    assert result["ok"] and result["utterances"] == len(lines) == len(doc.body)
    qa = [
        (printed, line)
        for printed, line in zip(doc.body, lines, strict=True)
        if printed[:2] in ("Q ", "A ") and not is_speaker_line(printed)  # not "A JUROR:"
    ]
    assert len(qa) > 50
    for printed, line in qa:
        speaker, _, said = line.partition(": ")
        assert said == printed[2:] and speaker


def test_a_witness_name_alone_before_the_swearing_in_line_names_the_witness():
    text = (
        "RICHARD ROE, JR.,\nhaving been first duly sworn, was examined and\ntestified as follows:\n"
        "EXAMINATION\nBY MS. DOE:\nQ Your name?\nA Richard Roe.\nQ Where?\nA Home.\n"
    )
    lines = _lines(text)
    assert lines[0] == (
        "RICHARD ROE, JR., having been first duly sworn, was examined and testified as follows:"
    )
    assert ("RICHARD ROE", "Richard Roe.") in _turns(text)


def test_a_suffix_after_the_witness_name_is_read_in_the_swearing_in_line():
    text = (
        "JANE ROE, M.D., called as a witness, having been duly sworn, testified:\n"
        "BY MS. DOE:\nQ Your work?\nA Surgeon.\nQ Where?\nA Here.\n"
    )
    assert ("JANE ROE", "Surgeon.") in _turns(text)


def test_an_excused_witness_takes_no_later_answers():
    # Never a wrong name: a witness called later without a swearing-in line is THE WITNESS.
    text = GRAND_JURY + "(Witness excused.)\nEXAMINATION\nBY MS. DOE:\nQ Your name?\nA Al.\n"
    assert _turns(text)[-2:] == [("MS. DOE", "Your name?"), ("THE WITNESS", "Al.")]


def test_examination_by_heading_with_a_colon_and_a_question_naming_its_asker():
    text = (
        "CROSS-EXAMINATION BY MR. POE:\nQ One?\nA Yes.\nQ (By Ms. Doe) Two?\nA No.\n"
        "Q Three?\nA Maybe.\n"
    )
    turns = _turns(text)
    assert turns[1] == ("MR. POE", "One?")
    assert turns[3] == ("MS. DOE", "(By Ms. Doe) Two?") and turns[5][0] == "MS. DOE"


def test_a_swearing_in_line_in_capitals_names_the_witness():
    text = (
        "JANE ROE, HAVING BEEN FIRST DULY SWORN, TESTIFIED AS FOLLOWS:\nBY MS. DOE:\n"
        "Q Your name?\nA Jane Roe.\nQ Where?\nA Here.\n"
    )
    assert ("JANE ROE", "Jane Roe.") in _turns(text)


def test_a_name_in_capitals_with_a_clause_in_speech_is_no_swearing_in():
    text = (
        "PRESIDING COMMISSIONER ALDEN: The letter came from\n"
        "JOHN SMITH, who was your employer, and from\n"
        "MARY SMITH, being his wife.\n"
        "INMATE ROOK: Yes.\n"
    )
    assert _lines(text)[0] == (
        "PRESIDING COMMISSIONER ALDEN: The letter came from JOHN SMITH, who was your employer, "
        "and from MARY SMITH, being his wife."
    )


def test_a_long_answer_line_skips_the_heading_and_swearing_in_patterns():
    # A 45,000-character answer starting with "(" is read as Q/A text only (the heading and
    # swearing-in patterns backtrack on such lines).
    line = "(" + "word " * 9000
    text = f"BY MS. DOE:\nQ One?\nA {line}\nQ Two?\nA No.\n"
    turns = _turns(text)
    assert turns[2][0] == "THE WITNESS" and len(turns) == 5


@pytest.mark.parametrize("mark", ["A", "A."])
def test_exhibit_a_at_a_line_start_continues_the_sentence_it_ends(mark):
    text = (
        "BY MS. DOE:\nQ. Did you go?\nA. Yes.\nMR. POE: I'd like this marked as Exhibit\n"
        f"{mark} for identification.\nQ. Let me show you Exhibit\n{mark} and ask you about it.\n"
        "A. I see it.\n"
    )
    turns = _turns(text)
    assert ("MR. POE", f"I'd like this marked as Exhibit {mark} for identification.") in turns
    assert ("MS. DOE", f"Let me show you Exhibit {mark} and ask you about it.") in turns
    assert turns[-1] == ("THE WITNESS", "I see it.")
