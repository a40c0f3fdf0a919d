"""Gold spans bootstrapped from a clear document and its redacted version. Django-free.

The redacted version replaces personal data by *markers*: ``OMISSIS``, ``[REDACTED]``,
``XXXX``, ``█████``, or tags (``[PERSON_1]``, ``<LOCATION>``, ``[MONTH]``...). We
align the two token sequences and read the gold spans off the alignment: the clear
tokens a marker stands for are one span, labelled from the tag when it has one.

Alignment, in two stages (robust to edits anywhere, unlike a fixed window):

1. ``difflib.SequenceMatcher`` (no auto-junk) anchors the long runs of identical
   tokens (case-insensitive); every marker is a token that matches nothing;
2. between anchors, a small dynamic programme over tokens aligns the rest: a marker
   consumes one or more clear tokens (free, a tiny cost per extra token, a larger one
   for crossing a line break); a literal token matches an equal one for free; a
   substituted, deleted or inserted token costs 1; a marker that consumes nothing costs 1.

Everything the alignment could not explain (substituted or missing text, empty
markers) is reported as *unaligned regions* with offsets on both sides, so a person
can check them. The report carries offsets only, never text.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from engine.gold import GoldDoc, GoldSpan
from engine.labels import LABELS
from engine.vocab import LOCATION_SUBTYPES, NRP_SUBTYPES, ORGANIZATION_SUBTYPES

TOKEN_RE = re.compile(r"\w+|[^\w\s]")
MARKER_RE = re.compile(
    r"""
    \[\s*[A-Z][A-Z0-9_ ]*[A-Z0-9]\s*\]      # [REDACTED], [PERSON_1], [MONTH]
  | <\s*[A-Za-z][A-Za-z0-9_]*\s*/?>          # <PERSON>, <name/>
  | \b[Oo][Mm][Ii][Ss][Ss][Ii][Ss]\b         # OMISSIS
  | \b[Xx]{3,}\b                             # XXXX
  | [█■▇]+                                   # █████
    """,
    re.VERBOSE,
)

# Tag names (without counters) that are not one of the 14 labels themselves.
TAG_LABELS: dict[str, str] = {
    **{name: "PERSON" for name in ("NAME", "FIRST_NAME", "LAST_NAME", "SURNAME", "PER")},
    **{name: "CDCR_ID" for name in ("ID", "CDCR", "CDCR_NUMBER")},
    **{name: "LOCATION" for name in (*LOCATION_SUBTYPES, "LOC", "GPE", "STREET")},
    **{name: "ORGANIZATION" for name in (*ORGANIZATION_SUBTYPES, "ORG")},
    **{name: "DATE" for name in ("MONTH", "DAY", "YEAR", "DAY_OF_WEEK", "DECADE", "NUMBER")},
    **{name: "NRP" for name in NRP_SUBTYPES},
    "PHONE": "PHONE_NUMBER",
    "EMAIL": "EMAIL_ADDRESS",
}
UNTYPED = {"REDACTED", "OMISSIS", "REMOVED", "MASKED", "PII", "XXX"}
# Untyped markers: a label guessed from the clear text's shape, else the default.
SHAPES: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(r"[A-Za-z]{1,2}[- ]?\d{4,6}"), "CDCR_ID"),
    (re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"), "EMAIL_ADDRESS"),
    (re.compile(r"(?:https?://|www\.)\S+"), "URL"),
    (re.compile(r"\(?\d{3}\)?[ .-]?\d{3}[ .-]\d{4}"), "PHONE_NUMBER"),
    (re.compile(r"\d{1,2}/\d{1,2}/\d{2,4}|(?:19|20)\d\d"), "DATE"),
    (re.compile(r"\d{1,2}:\d\d(?:\s*[ap]\.?m\.?)?", re.I), "TIME"),
)
MERGED_LABELS = frozenset({"DATE", "TIME"})  # [MONTH] [DAY], [YEAR] → one DATE span

EXTRA_TOKEN_COST = 0.01
# A marker extending over a space costs a little more than over glued tokens (``C-28502``,
# ``11/15/05``): markers side by side (``[PERSON_1] [PERSON_2] [ID_1] [DATE]``) then split
# their clear text at its spaces, not wherever the tie falls.
SPACE_COST = 0.001
LINE_BREAK_COST = 2.0
MAX_DP_CELLS = 1_000_000


def marker_label(raw: str, default: str) -> str:
    """The label a marker names (``[PERSON_3]`` → PERSON), or ``default`` (untyped)."""
    name = raw.strip("[]<>/ \t").strip().upper().replace(" ", "_")
    if not name or set(name) <= {"X"} or name[0] in "█■▇" or name in UNTYPED:
        return default
    name = re.sub(r"_\d+$", "", name)
    if name.startswith("SPELLED_NAME"):
        return "SPELLED_NAME"
    if name in LABELS:
        return name
    if name in TAG_LABELS:
        return TAG_LABELS[name]
    return default


@dataclass(frozen=True, slots=True)
class Tok:
    start: int
    end: int
    norm: str
    marker: bool = False
    label: str = ""


@dataclass(slots=True)
class UnalignedRegion:
    """A stretch the alignment could not explain: offsets on both sides (end exclusive)."""

    clear_start: int
    clear_end: int
    redacted_start: int
    redacted_end: int
    kind: str  # "substituted", "clear_only", "redacted_only", "empty_marker"

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "clear": [self.clear_start, self.clear_end],
            "redacted": [self.redacted_start, self.redacted_end],
        }


@dataclass(slots=True)
class Alignment:
    spans: list[GoldSpan]
    unaligned: list[UnalignedRegion]
    markers: int
    aligned_markers: int
    clear_tokens: int
    matched_tokens: int
    notes: list[str] = field(default_factory=list)

    def summary(self) -> dict:
        return {
            "markers": self.markers,
            "aligned_markers": self.aligned_markers,
            "spans": len(self.spans),
            "unaligned_regions": len(self.unaligned),
            "clear_tokens": self.clear_tokens,
            "matched_tokens": self.matched_tokens,
            "notes": self.notes,
        }


def tokenize_clear(text: str) -> list[Tok]:
    return [Tok(m.start(), m.end(), m.group().casefold()) for m in TOKEN_RE.finditer(text)]


def guess_label(mention: str, default: str) -> str:
    """The label of an untyped marker's clear text, from its shape, else ``default``."""
    for pattern, label in SHAPES:
        if pattern.fullmatch(mention.strip()):
            return label
    return default


def tokenize_redacted(text: str) -> list[Tok]:
    toks: list[Tok] = []
    pos = 0
    for m in MARKER_RE.finditer(text):
        toks += [
            Tok(pos + t.start(), pos + t.end(), t.group().casefold())
            for t in TOKEN_RE.finditer(text[pos : m.start()])
        ]
        toks.append(Tok(m.start(), m.end(), "\x00", True, marker_label(m.group(), "")))
        pos = m.end()
    toks += [
        Tok(pos + t.start(), pos + t.end(), t.group().casefold())
        for t in TOKEN_RE.finditer(text[pos:])
    ]
    return toks


# Operations of the block alignment: (kind, clear index range, redacted index)
_MATCH, _SUB, _DEL, _INS, _MARK, _EMPTY = "match", "sub", "del", "ins", "mark", "empty"


def _align_block(clear_text: str, c: list[Tok], r: list[Tok]) -> list[tuple]:
    """Minimum-cost alignment of a short clear block ``c`` with a redacted block ``r``.

    Returns operations in order: ``(kind, i0, i1, j)`` where clear tokens ``c[i0:i1]``
    go with redacted token ``r[j]`` (``j`` is -1 for deletions).
    """
    n, m = len(c), len(r)
    if (n + 1) * (m + 1) > MAX_DP_CELLS:
        # Too large to align finely: everything unaligned (reported, never guessed).
        ops: list[tuple] = [(_DEL, i, i + 1, -1) for i in range(n)]
        ops += [(_EMPTY if t.marker else _INS, n, n, j) for j, t in enumerate(r)]
        return ops

    inf = float("inf")

    def gap_cost(i: int) -> float:
        # Cost of a marker that already holds c[i-1] extending over c[i].
        between = clear_text[c[i - 1].end : c[i].start]
        if "\n" in between:
            return LINE_BREAK_COST
        return EXTRA_TOKEN_COST + (SPACE_COST if between else 0.0)

    # D[i][j]: best cost of c[:i] vs r[:j]; M[i][j]: same, with r[j-1] a marker that
    # holds c[i-1] (and possibly earlier tokens).
    D = [[inf] * (m + 1) for _ in range(n + 1)]
    M = [[inf] * (m + 1) for _ in range(n + 1)]
    back_d: list[list[str | None]] = [[None] * (m + 1) for _ in range(n + 1)]
    # back_m[i][j]: True when the marker r[j-1] starts at c[i-1] (came from D[i-1][j-1]).
    back_m = [[False] * (m + 1) for _ in range(n + 1)]
    D[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 and j == 0:
                continue
            if j > 0 and i > 0 and r[j - 1].marker:
                start = D[i - 1][j - 1]
                extend = M[i - 1][j] + gap_cost(i - 1) if i > 1 else inf
                if start <= extend:
                    M[i][j] = start
                    back_m[i][j] = True
                else:
                    M[i][j] = extend
            best, how = inf, None
            if i > 0 and j > 0 and not r[j - 1].marker:
                cost = 0.0 if c[i - 1].norm == r[j - 1].norm else 1.0
                if D[i - 1][j - 1] + cost < best:
                    best, how = D[i - 1][j - 1] + cost, (_MATCH if cost == 0 else _SUB)
            if i > 0 and D[i - 1][j] + 1 < best:
                best, how = D[i - 1][j] + 1, _DEL
            if j > 0 and D[i][j - 1] + 1 < best:
                best, how = D[i][j - 1] + 1, (_EMPTY if r[j - 1].marker else _INS)
            if j > 0 and r[j - 1].marker and M[i][j] < best:
                best, how = M[i][j], _MARK
            D[i][j] = best
            back_d[i][j] = how

    ops = []
    i, j = n, m
    while i > 0 or j > 0:
        how = back_d[i][j]
        if how in (_MATCH, _SUB):
            ops.append((how, i - 1, i, j - 1))
            i, j = i - 1, j - 1
        elif how == _DEL:
            ops.append((_DEL, i - 1, i, -1))
            i -= 1
        elif how in (_INS, _EMPTY):
            ops.append((how, i, i, j - 1))
            j -= 1
        else:  # marker: follow M back to where it started
            end = i
            k = i
            while not back_m[k][j]:
                k -= 1
            i0 = k - 1
            ops.append((_MARK, i0, end, j - 1))
            i, j = i0, j - 1
    ops.reverse()
    return ops


def align(clear: str, redacted: str, *, default_label: str = "PERSON") -> Alignment:
    """Align ``clear`` with ``redacted``; spans are offsets into ``clear``."""
    c = tokenize_clear(clear)
    r = tokenize_redacted(redacted)
    matcher = difflib.SequenceMatcher(None, [t.norm for t in c], [t.norm for t in r], autojunk=True)
    ops: list[tuple] = []  # (kind, clear i0, i1, redacted j) in document order
    matched = 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops += [(_MATCH, i1 + k, i1 + k + 1, j1 + k) for k in range(i2 - i1)]
            matched += i2 - i1
            continue
        for kind, a0, a1, b in _align_block(clear, c[i1:i2], r[j1:j2]):
            ops.append((kind, a0 + i1, a1 + i1, b + j1 if b >= 0 else -1))
            if kind == _MATCH:
                matched += 1

    spans: list[GoldSpan] = []
    unaligned: list[UnalignedRegion] = []
    pending: list[tuple] = []
    last_r = -1  # last redacted token index placed, to anchor clear-only regions
    last_c = 0

    def flush() -> None:
        if not pending:
            return
        c_idx = [k for op in pending for k in range(op[1], op[2])]
        r_idx = [op[3] for op in pending if op[3] >= 0]
        cs = c[min(c_idx)].start if c_idx else (c[last_c - 1].end if last_c else 0)
        ce = c[max(c_idx)].end if c_idx else cs
        rs = r[min(r_idx)].start if r_idx else (r[last_r].end if last_r >= 0 else 0)
        re_ = r[max(r_idx)].end if r_idx else rs
        kinds = {op[0] for op in pending}
        if kinds == {_EMPTY}:
            kind = "empty_marker"
        elif c_idx and r_idx:
            kind = "substituted"
        elif c_idx:
            kind = "clear_only"
        else:
            kind = "redacted_only"
        unaligned.append(UnalignedRegion(cs, ce, rs, re_, kind))
        pending.clear()

    markers = sum(1 for t in r if t.marker)
    aligned_markers = 0
    for op in ops:
        kind, a0, a1, b = op
        if kind in (_MATCH, _MARK):
            flush()
            if kind == _MARK:
                aligned_markers += 1
                start, end = c[a0].start, c[a1 - 1].end
                label = r[b].label or guess_label(clear[start:end], default_label)
                spans.append(GoldSpan(start, end, label))
        else:
            pending.append(op)
        if b >= 0:
            last_r = b
        if a1 > a0:
            last_c = a1
    flush()

    merged: list[GoldSpan] = []
    for span in spans:
        if (
            merged
            and span.label in MERGED_LABELS
            and merged[-1].label == span.label
            and re.fullmatch(r"[ ,]*", clear[merged[-1].end : span.start])
        ):
            merged[-1] = GoldSpan(merged[-1].start, span.end, span.label)
        else:
            merged.append(span)

    notes = []
    if markers == 0:
        notes.append("no redaction markers found in the redacted document")
    return Alignment(
        spans=merged,
        unaligned=unaligned,
        markers=markers,
        aligned_markers=aligned_markers,
        clear_tokens=len(c),
        matched_tokens=matched,
        notes=notes,
    )


def gold_from_pair(
    doc_id: str, clear: str, redacted: str, *, default_label: str = "PERSON"
) -> tuple[GoldDoc, Alignment]:
    """A gold document (text = the clear text) and the alignment it came from."""
    result = align(clear, redacted, default_label=default_label)
    meta = {
        "source": "align_redacted",
        "alignment": result.summary(),
        "unaligned": [u.to_json() for u in result.unaligned],
    }
    return GoldDoc(doc_id, clear, sorted(result.spans), [], meta), result
