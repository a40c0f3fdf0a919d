"""Captions (WebVTT, SRT), timestamped speech-to-text and reStructuredText / Markdown
transcripts import with one utterance per turn and no markup, cue number or timestamp in
the text; the files are the generator's (``engine.synthetic.formats``)."""

import re

import pytest

from engine.importing import parse_file
from engine.importing.sources import IMPORTABLE
from engine.synthetic.formats import FORMATS, format_document

TIMESTAMP = re.compile(r"\d{1,2}:\d{2}[.,]\d{3}|\[\d{1,2}:\d{2}|\(\d{1,2}:\d{2}:\d{2}\)|-->")
MARKUP = re.compile(r"\*\*|<v |</v>|<i>|^\.\. |^=+$|^-+$|^#|WEBVTT|^NOTE\b|rst-class", re.M)


def _turns(parsed):
    return [(u.speaker, parsed.text[u.start : u.end]) for u in parsed.utterances if u.speaker]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "family, seed", [("bph", 0), ("bph", 1), ("bph", 2), ("grand_jury", 3), ("federal", 4)]
)
def test_a_generated_format_imports_as_its_gold_text_one_utterance_per_turn(fmt, family, seed):
    doc = format_document(seed, fmt, family=family, words=700)
    parsed = parse_file(f"hearing{doc.suffix}", doc.content.encode())
    assert parsed.text == doc.gold.text
    assert _turns(parsed) == [(s, f"{s}: {t}") for s, t in doc.turns]
    assert not TIMESTAMP.search(parsed.text)
    assert not MARKUP.search(parsed.text)
    for span in doc.gold.spans:  # the gold's offsets point into the imported text
        assert parsed.text[span.start : span.end].strip() == parsed.text[span.start : span.end]


@pytest.mark.parametrize("fmt", ["vtt", "srt", "stt"])
def test_caption_and_speech_to_text_times_are_kept_per_utterance(fmt):
    doc = format_document(5, fmt, words=600)
    parsed = parse_file(f"hearing{doc.suffix}", doc.content.encode())
    times = parsed.layout["timestamps"]
    assert [t["start"] for t in times] == doc.times
    assert [t["utterance"] for t in times] == [u.index for u in parsed.utterances]
    assert parsed.layout["document_format"] == ("txt" if fmt == "stt" else fmt)


def test_webvtt_voice_tags_merge_cues_by_speaker():
    vtt = (
        "WEBVTT\n\n1\n00:00:01.000 --> 00:00:03.000\n<v Mr Pemberton>Good morning.</v>\n\n"
        "2\n00:00:03.500 --> 00:00:05.000\n<v Mr Pemberton>Shall we begin?\n\n"
        "00:00:05.000 --> 00:00:07.250 line:90%\n<v.loud Ms Lee>Yes, <i>please</i>.\n"
        "We may &amp; should.\n\n"
        "00:07.500 --> 00:09.000\nAnd then we <00:00:08.000>go on.\n"
    )
    parsed = parse_file("day.vtt", vtt.encode())
    assert parsed.text == (
        "MR PEMBERTON: Good morning. Shall we begin?\n"
        "MS LEE: Yes, please. We may & should. And then we go on."
    )
    assert parsed.layout["timestamps"] == [
        {"utterance": 0, "start": "00:00:01.000", "end": "00:00:05.000"},
        {"utterance": 1, "start": "00:00:05.000", "end": "00:00:09.000"},
    ]


def test_srt_prefixes_and_dialogue_dashes_become_turns():
    srt = (
        "1\r\n00:00:01,000 --> 00:00:02,000\r\nTHE COURT: Be seated.\r\n\r\n"
        "2\r\n00:00:02,100 --> 00:00:04,000\r\n- Thank you.\r\n- MS. LEE: Ready.\r\n\r\n"
        "3\r\n00:00:04,100 --> 00:00:05,000\r\n{\\an8}We call our first\r\nwitness.\r\n"
    )
    parsed = parse_file("day.srt", srt.encode())
    assert parsed.text == (
        "THE COURT: Be seated.\nThank you.\nMS. LEE: Ready. We call our first witness."
    )
    assert [u.speaker for u in parsed.utterances] == ["THE COURT", "", "MS. LEE"]


@pytest.mark.parametrize(
    "text",
    [
        "[00:12:31] Speaker 1: Good morning.\n[00:12:35] Speaker 2: Morning.\n"
        "[00:12:37] Speaker 2: Shall we?\n[00:12:40] Speaker 1: Yes.\n",
        "Speaker 1 (00:12:31): Good morning.\n\nSpeaker 2 (00:12:35): Morning.\n\n"
        "Speaker 2 (00:12:37): Shall we?\n\nSpeaker 1 (00:12:40): Yes.\n",
        "Speaker 1  00:12:31\nGood morning.\n\nSpeaker 2  00:12:35\nMorning.\n\n"
        "Speaker 2  00:12:37\nShall\nwe?\n\nSpeaker 1  00:12:40\nYes.\n",
    ],
    ids=["bracket", "parenthesis", "otter"],
)
def test_speech_to_text_shapes_lose_their_timestamps(text):
    parsed = parse_file("call.txt", text.encode())
    assert parsed.text == "SPEAKER 1: Good morning.\nSPEAKER 2: Morning. Shall we?\nSPEAKER 1: Yes."
    assert [t["start"] for t in parsed.layout["timestamps"]] == ["00:12:31", "00:12:35", "00:12:40"]


def test_a_court_transcript_with_a_clock_column_is_not_speech_to_text():
    text = "\n".join(
        f"09:28:{i:02d}   {i}   THE COURT: Line {i} of the record." for i in range(1, 20)
    )
    parsed = parse_file("court.txt", text.encode())
    assert "timestamps" not in parsed.layout
    assert parsed.utterances[0].speaker == "THE COURT"


def test_restructuredtext_markup_is_removed_one_utterance_per_turn():
    rst = (
        ".. rst-class:: hearing\n\n"
        "Hearing Day 12\n==============\n\n"
        ":Date: 14 October 2003\n\n"
        '.. raw:: html\n\n   <iframe src="https://video.example/v/abc123"></iframe>\n\n'
        "**Mr Pemberton**: Good morning. I shall call\nthe first witness.\n\n"
        "*MS. LEE*: Thank you, sir.\n\n"
        "She continues on a second paragraph.\n\n"
        "*(Short adjournment)*\n\n"
        "**Mr Pemberton:** We resume with ``exhibit 4`` and `the letter <https://x.example/l>`_.\n"
    )
    parsed = parse_file("day12.rst", rst.encode())
    assert parsed.text == (
        "Hearing Day 12\nDate: 14 October 2003\n"
        "MR PEMBERTON: Good morning. I shall call the first witness.\n"
        "MS. LEE: Thank you, sir. She continues on a second paragraph.\n"
        "(Short adjournment)\n"
        "MR PEMBERTON: We resume with exhibit 4 and the letter."
    )
    assert parsed.layout["document_format"] == "rst"


def test_markdown_with_italic_speaker_names_reads_as_restructuredtext_does():
    md = (
        "# Hearing Day 12\n\n**Mr Pemberton**: Good morning. I shall call\nthe first witness.\n\n"
        "_MS. LEE_: Thank you, [sir](https://x.example).\n\n## Afternoon\n\n"
        "*Mr Pemberton*: Next.\n"
    )
    parsed = parse_file("day12.md", md.encode())
    assert parsed.text == (
        "Hearing Day 12\nMR PEMBERTON: Good morning. I shall call the first witness.\n"
        "MS. LEE: Thank you, sir.\nAfternoon\nMR PEMBERTON: Next."
    )


def test_the_new_extensions_are_importable():
    assert {".vtt", ".srt", ".rst"} <= set(IMPORTABLE)


def test_lines_outside_speech_to_text_segments_stay_as_lines_of_their_own():
    text = (
        "Hearing day 12\n\nSpeaker 1  0:03\nGood morning.\n\nSpeaker 2  0:07\nMorning.\n\n"
        "Speaker 1  0:09\nLet us begin.\n\nTranscribed by a speech-to-text service\n"
    )
    parsed = parse_file("day.txt", text.encode())
    assert parsed.text == (
        "Hearing day 12\nSPEAKER 1: Good morning.\nSPEAKER 2: Morning.\n"
        "SPEAKER 1: Let us begin.\nTranscribed by a speech-to-text service"
    )
    assert [t["start"] for t in parsed.layout["timestamps"]] == ["00:00:03", "00:00:07", "00:00:09"]


def test_wrapped_lines_that_end_in_a_time_do_not_make_a_transcript_speech_to_text():
    lines = ["PRESIDING COMMISSIONER ALDEN: We are on the record."]
    for n in range(40):
        lines += [f"And so on day {n} we went on the", f"record. The time is 9:{n:02d}", "and on."]
    parsed = parse_file("board.txt", "\n".join(lines).encode())
    assert "timestamps" not in parsed.layout
    assert parsed.utterances[0].speaker == "PRESIDING COMMISSIONER ALDEN"


@pytest.mark.parametrize("fmt", ["rst", "md"])
def test_markup_saved_as_txt_is_read_as_markup(fmt):
    doc = format_document(6, fmt, family="grand_jury", words=600)
    parsed = parse_file("day.txt", doc.content.encode())
    assert parsed.text == doc.gold.text
    assert parsed.layout["document_format"] == fmt
