"""A question written without its ``Q`` marker, followed by an ``A`` line, is an utterance
of its own (of unknown speaker, ``Q``, or the juror's where the transcript says a juror
asks), never a piece of the witness's previous answer; generated grand jury volumes hold
both kinds (hard case ``unmarked_question``)."""

import pytest

from engine.importing import parse_pdf, parse_text
from engine.synthetic.families import family_document
from engine.synthetic.family_render import render_pdf, render_text


def _turns(parsed):
    return [(u.speaker, parsed.text[u.start : u.end]) for u in parsed.utterances if u.speaker]


@pytest.mark.parametrize("kind", ["txt", "pdf"])
@pytest.mark.parametrize("seed", [3, 8])
def test_generated_unmarked_questions_are_utterances_of_their_own(seed, kind):
    doc = family_document(seed, "grand_jury", words=700)
    assert len(doc.hard_cases["unmarked_question"]) == 2
    raw = render_text(doc).encode() if kind == "txt" else render_pdf(doc)
    parsed = parse_text(raw) if kind == "txt" else parse_pdf(raw)
    assert parsed.text == doc.gold.text
    turns = _turns(parsed)
    assert [s for s, _ in turns] == [s for s, _ in doc.turns]
    for start, end in doc.hard_cases["unmarked_question"]:
        line = next(u for u in parsed.utterances if u.start <= start < u.end)
        assert parsed.text[line.start : line.end].endswith(parsed.text[start:end])
        assert line.speaker in ("Q", "A JUROR", "JUROR", "GRAND JUROR", "A GRAND JUROR")


LINES = [
    "EXAMINATION",
    "BY MS. LEE:",
    "Q Where were you?",
    "A At home.",
    "Q And then?",
    "A I went out.",
    "Did you see anyone there?",
    "A No.",
    "A GRAND JUROR: Was it dark?",
    "A Yes, it was",
    "very dark.",
    "How dark",
    "was it?",
    "A Pitch dark.",
    "Q Thank you.",
    "A Sure.",
]


def test_an_unmarked_question_of_unknown_speaker_is_q():
    parsed = parse_text("\n".join(LINES))
    assert _turns(parsed)[4] == ("Q", "Q: Did you see anyone there?")
    assert _turns(parsed)[3] == ("THE WITNESS", "THE WITNESS: I went out.")


def test_an_unmarked_follow_up_after_a_jurors_question_is_the_jurors():
    parsed = parse_text("\n".join(LINES))
    turns = _turns(parsed)
    assert turns[6:9] == [
        ("A GRAND JUROR", "A GRAND JUROR: Was it dark?"),
        ("THE WITNESS", "THE WITNESS: Yes, it was very dark."),
        ("A GRAND JUROR", "A GRAND JUROR: How dark was it?"),
    ]
    assert turns[9] == ("THE WITNESS", "THE WITNESS: Pitch dark.")


def test_a_question_inside_an_answer_that_goes_on_is_not_split():
    lines = ["BY MS. LEE:", "Q Where?", "A I said to him,", "what do you want?", "A Nothing."]
    parsed = parse_text("\n".join(lines))
    turns = _turns(parsed)
    assert len(turns) == 2  # a bare A line after an answer goes on with it, as before
    assert turns[1][1].startswith("THE WITNESS: I said to him, what do you want?")
