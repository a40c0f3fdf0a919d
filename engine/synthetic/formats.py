"""The generator's transcripts in the formats hearings on video and web exports come in.

A layout family's canonical text (its gold) is written again as:

- ``vtt``: WebVTT captions, a turn cut into cues of a few words; the speaker by a voice
  tag on every cue (``<v Mr. Alden>``), by a ``SPEAKER:`` prefix on a turn's first cue,
  or by dialogue dashes (``- SPEAKER: text`` for two short turns in one cue), with a
  ``STYLE`` block, a ``NOTE``, cue identifiers and ``<i>`` tags;
- ``srt``: SubRip captions, numbered cues with comma milliseconds, ``SPEAKER:`` prefixes
  or dialogue dashes;
- ``stt``: a timestamped speech-to-text transcript (``.txt``) in one of three shapes:
  ``[00:12:31] SPEAKER: text``, ``Speaker 2 (00:12:31): text`` (speakers numbered, as
  tools write them before anyone names them) or Otter's ``Name  00:12:31`` line over the
  text;
- ``rst``: reStructuredText (a directive, a title and a section heading underlined,
  ``**Mr Alden**:``, ``**Mr Alden:**`` and ``*MS. LEE*:`` speaker names, paragraphs
  wrapped at 72 characters) and ``md``: the same in Markdown (``#`` headings).

The importer makes one ``SPEAKER: text`` line of each turn (speakers in capitals): the
speaker turns of the family in order, a speaker's consecutive turns as one (captions and
speech-to-text merge by speaker), headings as lines of their own in the markup formats.
``FormatDoc.gold`` is that text with the family's gold spans moved into it, so its offsets
point into the imported text by construction. Lines that are no speaker turn (stage
directions, ``BY`` lines, the certificate) are not written. Django-free.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace

from engine.gold import GoldDoc

FORMATS = ("vtt", "srt", "stt", "rst", "md")
SUFFIXES = {"vtt": ".vtt", "srt": ".srt", "stt": ".txt", "rst": ".rst", "md": ".md"}
_TURN = re.compile(r"^([A-Z][A-Z0-9.'’ \-]{0,60}?): (\S.*)$")


@dataclass
class FormatDoc:
    fmt: str
    family: str
    seed: int
    shape: str  # the variant written: voice | prefix | dash | bracket | numbered | otter | ...
    content: str
    gold: GoldDoc
    turns: list[tuple[str, str]]  # (speaker, text) of every utterance the importer must make
    times: list[str] = field(default_factory=list)  # start time of each turn (captions, stt)

    @property
    def id(self) -> str:
        return f"{self.family}-{self.fmt}-{self.seed:05d}"

    @property
    def suffix(self) -> str:
        return SUFFIXES[self.fmt]


@dataclass
class _Turn:
    tag: str
    body: str
    pieces: list[tuple[int, int, int]]  # (old start, old end, offset in the new line)
    heading: bool = False


def _source(seed: int, family: str, words: int) -> GoldDoc:
    if family == "bph":
        from .generator import generate_hearing

        return generate_hearing(seed, words=words).gold
    from .families import family_document

    return family_document(seed, family, words=words).gold


def _turns(gold: GoldDoc, *, merge: bool) -> list[_Turn]:
    """The speaker turns of a canonical text (``merge``: a speaker's consecutive turns as
    one), with where each piece of text came from."""
    out: list[_Turn] = []
    offset = 0
    for line in gold.text.split("\n"):
        start, offset = offset, offset + len(line) + 1
        m = _TURN.match(line)
        if not m or not any(c.isalpha() for c in m.group(1)):
            continue
        tag, body = m.group(1), m.group(2)
        body_at = start + m.start(2)
        if merge and out and out[-1].tag == tag:
            last = out[-1]
            at = len(last.tag) + 2 + len(last.body) + 1
            last.pieces.append((body_at, body_at + len(body), at))
            last.body = f"{last.body} {body}"
            continue
        out.append(
            _Turn(
                tag,
                body,
                [(start, start + len(tag), 0), (body_at, body_at + len(body), len(tag) + 2)],
            )
        )
    return out


def _gold(source: GoldDoc, turns: list[_Turn], doc_id: str, meta: dict) -> GoldDoc:
    """The imported text of ``turns`` and the source's spans moved into it; a span in a
    speaker tag the format renames (``Speaker 2``) has no place and is left out."""
    lines, spans, offset = [], [], 0
    for turn in turns:
        line = f"{turn.tag}: {turn.body}" if not turn.heading else turn.body
        for span in source.spans:
            for old_start, old_end, at in turn.pieces:
                if old_start <= span.start and span.end <= old_end:
                    shift = offset + at - old_start
                    spans.append(replace(span, start=span.start + shift, end=span.end + shift))
        lines.append(line)
        offset += len(line) + 1
    return GoldDoc(
        doc_id, "\n".join(lines), sorted(spans, key=lambda s: (s.start, s.end)), meta=meta
    )


def _chunks(text: str, rng: random.Random) -> list[str]:
    words, out = text.split(" "), []
    while words:
        n = rng.randint(5, 11)
        out.append(" ".join(words[:n]))
        words = words[n:]
    return out


def _clock(seconds: float, sep: str = ".", hours: bool = True) -> str:
    ms = round(seconds * 1000)
    h, rest = divmod(ms, 3_600_000)
    mi, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    head = f"{h:02d}:" if hours or h else ""
    return f"{head}{mi:02d}:{s:02d}{sep}{ms:03d}"


def _two_lines(chunk: str) -> str:
    words = chunk.split(" ")
    if len(words) < 7:
        return chunk
    half = len(words) // 2
    return " ".join(words[:half]) + "\n" + " ".join(words[half:])


def _captions(turns: list[_Turn], fmt: str, shape: str, rng: random.Random):
    """Cue blocks and the start time of each turn."""
    blocks: list[str] = []
    times: list[str] = []
    clock = 5.0 + rng.randint(0, 50)
    sep = "," if fmt == "srt" else "."
    i = 0
    while i < len(turns):
        turn = turns[i]
        nxt = turns[i + 1] if i + 1 < len(turns) else None
        if shape == "dash" and nxt and len(turn.body) < 70 and len(nxt.body) < 70:
            end = clock + 2.5
            times += [_clock(clock), _clock(clock)]
            text = f"- {turn.tag}: {turn.body}\n- {nxt.tag}: {nxt.body}"
            text = _escape(text) if fmt == "vtt" else text
            blocks.append((_clock(clock, sep), _clock(end, sep), text))
            clock = end + 0.2
            i += 2
            continue
        times.append(_clock(clock))
        for n, chunk in enumerate(_chunks(turn.body, rng)):
            chunk = _escape(chunk) if fmt == "vtt" else chunk
            end = clock + 0.4 * len(chunk.split()) + 0.5
            if shape == "voice":
                name = turn.tag.title()
                text = f"<v {name}>{_two_lines(chunk)}</v>"
            elif n == 0:
                text = _two_lines(f"{turn.tag}: {chunk}")
            else:
                text = _two_lines(chunk)
            if fmt == "vtt" and rng.random() < 0.1 and "\n" not in text and "<" not in text:
                text = f"<i>{text}</i>"
            blocks.append((_clock(clock, sep), _clock(end, sep), text))
            clock = end + 0.1
        i += 1
    return blocks, times


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _render_vtt(turns, shape, rng) -> tuple[str, list[str]]:
    blocks, times = _captions(turns, "vtt", shape, rng)
    out = ["WEBVTT - generated hearing captions", "", "STYLE", "::cue { color: white; }", ""]
    out += ["NOTE", "Made up by the anonreview generator; every name is invented.", ""]
    for n, (start, end, text) in enumerate(blocks, start=1):
        if n % 5 == 1:
            out.append(f"cue-{n}")
        out += [f"{start} --> {end} align:start position:10%", text, ""]
    return "\n".join(out), times


def _render_srt(turns, shape, rng) -> tuple[str, list[str]]:
    blocks, times = _captions(turns, "srt", shape, rng)
    out = []
    for n, (start, end, text) in enumerate(blocks, start=1):
        out += [str(n), f"{start} --> {end}", text, ""]
    return "\r\n".join(out), times


def _numbered(turns: list[_Turn]) -> None:
    """Speakers as speech-to-text tools name them before anyone does: Speaker 1, 2, ..."""
    numbers: dict[str, int] = {}
    for turn in turns:
        n = numbers.setdefault(turn.tag, len(numbers) + 1)
        label = f"SPEAKER {n}"
        shift = len(label) - len(turn.tag)
        turn.tag = label
        # the tag's own text is gone: only the body's pieces keep their spans
        turn.pieces = [(s, e, at + shift) for s, e, at in turn.pieces[1:]]


def _render_stt(turns, shape, rng) -> tuple[str, list[str]]:
    out: list[str] = []
    times: list[str] = []
    clock = float(rng.randint(0, 90))
    for turn in turns:
        times.append(_clock(clock, hours=True)[:8])
        parts = _chunks(turn.body, rng) if shape != "otter" else [turn.body]
        segments = [" ".join(parts[i : i + 4]) for i in range(0, len(parts), 4)]
        for segment in segments:
            stamp = _clock(clock)[:8]
            if shape == "bracket":
                out.append(f"[{stamp}] {turn.tag}: {segment}")
            elif shape == "numbered":
                out.append(f"{turn.tag.title()} ({stamp}): {segment}")
                out.append("")
            else:  # otter
                out += [f"{turn.tag.title()}  {stamp}", segment, ""]
            clock += 0.4 * len(segment.split()) + 1
    return "\n".join(out).rstrip("\n") + "\n", times


def _wrap(text: str, width: int = 72) -> list[str]:
    lines, current = [], ""
    for word in text.split(" "):
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    return [*lines, current] if current else lines


def _speaker_mark(tag: str, fmt: str, n: int) -> str:
    kind = n % 3
    if kind == 0:
        return f"**{tag.title()}**:"
    if kind == 1:
        return f"**{tag.title()}:**"
    return f"*{tag}*:" if fmt == "rst" else f"_{tag}_:"


def _heading(text: str, fmt: str, level: int) -> list[str]:
    if fmt == "md":
        return [f"{'#' * level} {text}"]
    bar = ("=" if level == 1 else "-") * len(text)
    return [bar, text, bar] if level == 1 else [text, bar]


def _markup(turns: list[_Turn], fmt: str, rng: random.Random) -> tuple[str, list[_Turn]]:
    title = "Record of the Hearing"
    second = "Afternoon Session"
    out: list[str] = []
    if fmt == "rst":
        out += [".. rst-class:: transcript", "", *_heading(title, fmt, 1), ""]
        out += [".. contents::", "   :local:", "", ".. A comment the export left.", ""]
    else:
        out += [*_heading(title, fmt, 1), "", "<!-- exported from the hearing record -->", ""]
    kept = [_Turn("", title, [], heading=True)]
    middle = len(turns) // 2
    for n, turn in enumerate(turns):
        if n == middle and n:
            out += [*_heading(second, fmt, 2), ""]
            if fmt == "md":
                out += ["---", ""]
            kept.append(_Turn("", second, [], heading=True))
        lines = _wrap(f"{_speaker_mark(turn.tag, fmt, n)} {turn.body}")
        out += [*lines, ""]
        kept.append(turn)
    return "\n".join(out), kept


def format_document(seed: int, fmt: str, *, family: str = "bph", words: int = 1200) -> FormatDoc:
    """A transcript of ``family`` (``families.FAMILIES``) written as ``fmt`` (``FORMATS``)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    source = _source(seed, family, words)
    rng = random.Random(seed * 31 + FORMATS.index(fmt))
    captions = fmt in ("vtt", "srt", "stt")
    turns = _turns(source, merge=captions)
    times: list[str] = []
    if fmt == "vtt":
        shape = ("voice", "prefix", "dash")[seed % 3]
        content, times = _render_vtt(turns, shape, rng)
    elif fmt == "srt":
        shape = ("prefix", "dash")[seed % 2]
        content, times = _render_srt(turns, shape, rng)
    elif fmt == "stt":
        shape = ("bracket", "numbered", "otter")[seed % 3]
        if shape == "numbered":
            _numbered(turns)
        content, times = _render_stt(turns, shape, rng)
    else:
        shape = fmt
        content, turns = _markup(turns, fmt, rng)
    doc_id = f"{family}-{fmt}-{seed:05d}"
    meta = dict(source.meta, format=fmt, shape=shape, id=doc_id)
    gold = _gold(source, turns, doc_id, meta)
    expected = [(t.tag, t.body) for t in turns if not t.heading]
    return FormatDoc(fmt, family, seed, shape, content, gold, expected, times)
