"""Speaker turns read by a format reader → a ``ParsedTranscript``. Django-free.

Captions and speech-to-text transcripts (``captions``, ``speech``) carry no pages, cover
or margin numbers: their readers give the turns themselves, each with the times of its
cues or segments. Here a speaker's consecutive turns become one utterance (captions cut
a sentence into cues of a few words), each utterance one ``SPEAKER: text`` line with the
speaker in capitals as in every other layout (the detectors read speaker tags in
capitals), and the times go to ``layout["timestamps"]``, one entry per utterance:
``{"utterance", "start", "end"}`` (``end`` where the format gives one). The text holds no
timestamp. Pages are cut as for text without page marks (``parse.sheet_lines``).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from engine.importing.layout import collapse

# The inline tags of WebVTT and SRT cues (class, italics, bold, underline, voice, ruby,
# language, font, cue timestamps); any other "<...>" is text (escaped in a valid file).
_TAG = re.compile(
    r"</?(?:c|i|b|u|s|v|ruby|rt|lang|font)(?:[.\s][^<>]*)?>|<\d{1,2}:\d{2}(?::\d{2})?[.,]\d{1,3}>",
    re.I,
)


@dataclass
class Turn:
    speaker: str  # as written ("Mr Pemberton", "Speaker 1"); "" when the file does not say
    text: str
    start: str = ""
    end: str = ""


def speaker_tag(name: str) -> str:
    """A speaker's name as a tag: whitespace collapsed, capitals, no trailing colon."""
    return collapse(name).rstrip(":").strip().upper()


def plain(text: str) -> str:
    """Cue or segment text without inline tags (``<i>``, ``<c.x>``, ``<00:00:08.000>``),
    entities decoded and whitespace collapsed."""
    return collapse(html.unescape(_TAG.sub("", text)))


def merge_turns(turns: list[Turn]) -> list[Turn]:
    """A speaker's consecutive turns as one; turns without a speaker stay apart."""
    out: list[Turn] = []
    for turn in turns:
        text = collapse(turn.text)
        if not text:
            continue
        tag = speaker_tag(turn.speaker) if turn.speaker else ""
        if out and tag and out[-1].speaker == tag:
            last = out[-1]
            last.text = f"{last.text} {text}"
            last.end = turn.end or last.end
            continue
        out.append(Turn(tag, text, turn.start, turn.end))
    return out


def turns_transcript(
    turns: list[Turn],
    *,
    document_format: str,
    source_format: str = "txt",
    notices: list[str] | None = None,
    extra: dict | None = None,
):
    """The transcript of ``turns`` (merged by speaker), with their times as metadata."""
    from engine.importing.cover import empty_metadata
    from engine.importing.errors import NoTranscript
    from engine.importing.parse import (
        BODY,
        ParsedTranscript,
        ParsedUtterance,
        role_for,
        sheet_lines,
    )
    from engine.importing.proceeding import proceeding_kind

    merged = merge_turns(turns)
    if not merged:
        raise NoTranscript("No transcript text was found in the file (only timings or markup?).")
    per_page = sheet_lines(len(merged))
    lines: list[str] = []
    utterances: list[ParsedUtterance] = []
    times: list[dict] = []
    offset = 0
    for i, turn in enumerate(merged):
        line = f"{turn.speaker}: {turn.text}" if turn.speaker else turn.text
        utterances.append(
            ParsedUtterance(
                index=i,
                speaker=turn.speaker,
                role=role_for(turn.speaker, []) if turn.speaker else "",
                page=1 + i // per_page,
                section=BODY,
                start=offset,
                end=offset + len(line),
            )
        )
        if turn.start:
            entry = {"utterance": i, "start": turn.start}
            if turn.end:
                entry["end"] = turn.end
            times.append(entry)
        lines.append(line)
        offset += len(line) + 1
    page_count = utterances[-1].page
    proceeding = proceeding_kind([], lines[:20])
    layout = {
        "pages": page_count,
        "cover_pages": [],
        "index_pages": [],
        "word_index_pages": [],
        "document_format": document_format,
        "lines_per_page_cut": per_page,
        "timestamps": times,
        "certification": False,
        "proceeding": proceeding,
        **(extra or {}),
    }
    return ParsedTranscript(
        text="\n".join(lines),
        metadata=empty_metadata(),
        utterances=utterances,
        page_count=page_count,
        source_format=source_format,
        layout=layout,
        notices=list(notices or []),
        proceeding=proceeding,
    )
