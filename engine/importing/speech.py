"""Timestamped speech-to-text transcripts (``.txt``) → speaker turns. Django-free.

Speech-to-text tools write a hearing on video as segments, each with its speaker and
start time, in three common shapes:

- ``[00:12:31] Speaker 1: text`` (also without brackets, or in parentheses);
- ``Speaker 2 (00:12:31): text`` (the text may start on the next line);
- ``Speaker 1  00:12:31`` on a line of its own, the text on the lines below (Otter).

A text file is read this way when such segment heads start at least three segments and
the segments hold 60 % of the file's lines (``speech_turns``); a court transcript's
margin clock column (``09:28:29  11  THE COURT: ...``) is no segment head (the speaker
never starts with a digit). A line outside the segments (a title, the tool's "Transcribed
by ..." line) stays, as a line without a speaker. The timestamps leave the text and go to
``layout["timestamps"]`` (``HH:MM:SS``); a speaker's consecutive segments are one
utterance (``turns.merge_turns``).
"""

from __future__ import annotations

import re

from engine.importing.turns import Turn, plain

_TS = r"(?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?"
# A speaker label: words that start with a capital or a digit ("Speaker 2", "Jane Roe",
# "MR. LEE"), never a sentence's end ("record. The time is 9:45" is no head).
_UPPER = "A-ZÀ-ÖØ-Þ"
_NAME = rf"[{_UPPER}][\w.'’\-]*(?:[ \t][{_UPPER}0-9][\w.'’\-]*){{0,5}}"
_TIME_FIRST = re.compile(
    rf"^[\[(]?(?P<ts>{_TS})[\])]?[ \t]*[-–]?[ \t]*(?P<name>{_NAME})[ \t]*:[ \t]*(?P<text>.*)$"
)
_NAME_FIRST = re.compile(
    rf"^(?P<name>{_NAME})[ \t]*[\[(](?P<ts>{_TS})[\])][ \t]*:?[ \t]*(?P<text>.*)$"
)
_HEAD_ALONE = re.compile(rf"^(?P<name>{_NAME})[ \t]+(?P<ts>{_TS})[ \t]*$")
MIN_SEGMENTS = 3
MIN_COVERED = 0.6


def _clock(value: str) -> str:
    whole = value.replace(",", ".").split(".")[0]
    parts = [int(p) for p in whole.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    return "{:02d}:{:02d}:{:02d}".format(*parts)


def _head(line: str):
    for pattern in (_TIME_FIRST, _NAME_FIRST, _HEAD_ALONE):
        if m := pattern.match(line):
            return m
    return None


def speech_turns(text: str) -> list[Turn] | None:
    """The turns of a timestamped speech-to-text transcript, or None when ``text`` is
    not one (fewer than three segment heads, or lines outside the segments)."""
    # a cheap look first: a file's first lines show whether it is in segments at all
    first = [line.strip() for line in text[:40_000].split("\n")[:400] if line.strip()]
    if sum(1 for line in first if _head(line)) < MIN_SEGMENTS:
        return None
    lines = text.split("\n")
    filled = [line for line in lines if line.strip()]
    turns: list[Turn] = []
    covered = 0
    heads = 0
    current: Turn | None = None
    for raw in lines:
        line = raw.strip()
        if not line:
            current = None if current is not None and current.text else current
            continue
        m = _head(line)
        if m:
            heads += 1
            covered += 1
            current = Turn(
                m.group("name"), (m.groupdict().get("text") or "").strip(), _clock(m.group("ts"))
            )
            turns.append(current)
        elif current is not None:
            covered += 1
            current.text = f"{current.text} {line}".strip()
        else:  # a title or a tool's footer line: kept, as a line of its own
            turns.append(Turn("", line))
    # heads are a tenth of the lines at least: a few lines of a court transcript that
    # happen to end in a time never make it one
    if heads < MIN_SEGMENTS or heads * 10 < len(filled) or covered < MIN_COVERED * len(filled):
        return None
    for turn in turns:
        turn.text = plain(turn.text)
    return turns


def parse_speech(turns: list[Turn], *, extra: dict | None = None):
    """The transcript of a speech-to-text file's turns."""
    from engine.importing.turns import turns_transcript

    return turns_transcript(
        turns,
        document_format="txt",
        extra={"speech_to_text": True, "segments": len(turns), **(extra or {})},
    )
