"""Caption files (WebVTT ``.vtt``, SubRip ``.srt``) → speaker turns. Django-free.

Hearings on video are transcribed as captions: cues of a few words, each with its timing.
The cues are merged into utterances by speaker (``turns.merge_turns``):

- a voice tag names the speaker (``<v Mr Pemberton>Good morning.``, ``<v.loud Ms Lee>``);
- a ``SPEAKER:`` prefix in capitals (``THE COURT: Be seated.``) or ``Speaker 2:`` starts a
  speaker's turn;
- a dialogue dash (``- Thank you.`` / ``- MS. LEE: Ready.``) or ``>>`` starts a new turn
  inside a cue, the speaker named by a prefix when there is one, else unknown;
- a cue with none of these goes on with the turn before it.

Cue numbers, identifiers, timings and cue settings, ``NOTE``/``STYLE``/``REGION`` blocks,
inline tags (``<i>``, ``<c.yellow>``, ``<00:00:08.000>``), SSA overrides (``{\\an8}``) and
HTML entities never reach the text; each utterance keeps the start of its first cue and
the end of its last (``layout["timestamps"]``, as ``HH:MM:SS.mmm``).
"""

from __future__ import annotations

import re

from engine.importing.layout import SPEAKER_RE, is_speaker_line
from engine.importing.turns import Turn, plain

_TS = r"(?:\d{1,3}:)?\d{1,2}:\d{2}[.,]\d{1,3}"
TIMING = re.compile(rf"^\s*({_TS})\s*-->\s*({_TS})(?:\s.*)?$")
_VOICE = re.compile(r"<v(?:\.[\w.-]+)?\s+([^>]+)>", re.I)
_SSA = re.compile(r"\{\\[^}]*\}")
# "Speaker 2:" as tools number speakers; "Q:" and "A:" as questions and answers are
# captioned (a one-letter tag is no speaker tag elsewhere).
_NUMBERED = re.compile(r"^(SPEAKER\s+\d+|Speaker\s+\d+|Q|A)\s*:\s+(.*)$")
_NEW_TURN = re.compile(r"^(?:-(?!-)|–(?!–)|>>)\s*")
_SKIP_BLOCKS = ("NOTE", "STYLE", "REGION", "WEBVTT")
CAPTION_SUFFIXES = (".vtt", ".srt")


def clock(value: str) -> str:
    """A cue time as ``HH:MM:SS.mmm`` (``00:07.5`` → ``00:00:07.500``)."""
    value = value.replace(",", ".")
    whole, _, frac = value.partition(".")
    parts = [int(p) for p in whole.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    h, m, s = parts
    return f"{h:02d}:{m:02d}:{s:02d}" + (f".{frac:0<3}" if frac else "")


def _prefix(text: str) -> tuple[str, str] | None:
    """``SPEAKER: text`` → (speaker, text)."""
    if m := _NUMBERED.match(text):
        return m.group(1), m.group(2)
    if is_speaker_line(text) and (m := SPEAKER_RE.match(text)):
        return m.group(1), m.group(2) or ""
    return None


def _pieces(lines: list[str]) -> list[tuple[bool, str, str]]:
    """A cue's text → (starts a turn, speaker or "", text) pieces."""
    out: list[tuple[bool, str, str]] = []
    for raw in lines:
        line = _SSA.sub("", raw).strip()
        if not line:
            continue
        voice = _VOICE.match(line)
        dash = _NEW_TURN.match(line) if not voice else None
        if voice:
            out.append((True, voice.group(1).strip(), line[voice.end() :]))
        elif dash:
            out.append((True, "", line[dash.end() :]))
        elif out:
            starts, speaker, text = out[-1]
            out[-1] = (starts, speaker, f"{text} {line}")
        else:
            out.append((False, "", line))
    result = []
    for starts, speaker, text in out:
        text = plain(text)
        if not speaker and (found := _prefix(text)):
            speaker, text, starts = found[0], found[1], True
        result.append((starts, speaker, text))
    return result


def caption_turns(text: str) -> tuple[list[Turn], int]:
    """The turns of a WebVTT or SRT file and how many cues it has."""
    blocks = re.split(r"\n[ \t]*\n", text.replace("\ufeff", "").strip("\n"))
    turns: list[Turn] = []
    cues = 0
    for block in blocks:
        lines = block.split("\n")
        at = next((i for i, line in enumerate(lines) if TIMING.match(line)), None)
        if at is None:
            head = lines[0].strip()
            if head.split(" ")[0] in _SKIP_BLOCKS or not head or head.isdigit():
                continue
            body, start, end = lines, "", ""  # text a blank line cut from its cue
        else:
            m = TIMING.match(lines[at])
            body, start, end = lines[at + 1 :], clock(m.group(1)), clock(m.group(2))
            cues += 1
        for starts, speaker, piece in _pieces(body):
            if not piece and not speaker:
                continue
            if starts or not turns:
                turns.append(Turn(speaker, piece, start, end))
            else:
                last = turns[-1]
                last.text = f"{last.text} {piece}".strip()
                last.end = end or last.end
    return turns, cues


def looks_like_captions(text: str) -> str | None:
    """``vtt`` or ``srt`` when a text file is a caption file, else None."""
    head = text.lstrip("\ufeff \n")
    if head.startswith("WEBVTT"):
        return "vtt"
    lines = head.split("\n", 2)
    if len(lines) >= 2 and lines[0].strip().isdigit() and TIMING.match(lines[1]):
        return "srt"
    return None


def parse_captions(text: str, kind: str):
    """A WebVTT or SRT file's transcript (``turns.turns_transcript``)."""
    from engine.importing.turns import turns_transcript

    turns, cues = caption_turns(text)
    return turns_transcript(turns, document_format=kind, extra={"cues": cues})
