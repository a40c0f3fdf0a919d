"""The recall safety net: words that look like names and that no other detector covered,
proposed with a low score and their own provenance (``safety_net``) as *possible misses*
for the reviewer. In the spirit of Philter's safe-list approach for clinical notes:
anything name-shaped that is not known to be safe is shown. Django-free.

A word is proposed when no other span covers it and

* it sits in the name part of a speaker tag (``MR. LONG:``), or follows an honorific
  (``Mr. pellegrino``) — whatever the word;
* it is a case variant of a name part found elsewhere in the transcript (``okafor``,
  ``OKAFOR``) that propagation left out, unless it is an ordinary English word;
* it is a title-case use of a name part that strong evidence made a name (the cover page,
  a speaker tag, an honorific) although it is an English word (``Day`` opening a sentence
  where ``Ms. Day`` testified; reason ``name-word``);
* it is a near-misspelling of a known name part (edit distance 1, 2 from 8 letters; same
  first letter), in any case;
* it is capitalised (or in capitals: a gazetteer name, or 6+ letters on a line that is
  not all capitals) and not an ordinary English word by frequency
  (``ordinary.is_ordinary``);

and it is not allow-listed, in the domain lexicon or another public term (``public.py``),
a title or role, a month or weekday. The ensemble runs this detector last (``stage``
2), on the merged spans of every other detector, propagation included.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from engine.detectors.base import Detection, Detector, Document
from engine.detectors.decisions import dropped_finds
from engine.detectors.given import everyday_word_here
from engine.detectors.names import TITLES
from engine.detectors.ordinary import is_name_word, is_ordinary
from engine.detectors.propagation import _mid_sentence
from engine.detectors.public import ROLE_WORDS, public_terms
from engine.detectors.recognizers.persons import _NOT_AFTER_HONORIFIC, speaker_tag_names
from engine.labels import DIRECT_IDENTIFIERS, LABELS
from engine.progress import PROGRESS, checkpoint

SCORE = 0.3
_TOKEN = re.compile(r"(?<![\w'’-])[A-Za-z][A-Za-z'’]*(?:-[A-Za-z][A-Za-z'’]*)*")
_HONORIFIC = re.compile(r"\b(?:Mr|Mrs|Ms|Mx|Dr|Miss|MR|MRS|MS|DR|MISS)\.?[ \t]+$")
_CALENDAR = frozenset(
    """january february march april may june july august september october november
    december monday tuesday wednesday thursday friday saturday sunday""".split()
)


@dataclass(frozen=True, slots=True)
class Candidate:
    start: int
    end: int
    # speaker-tag | honorific | name-variant | name-word | misspelling | name-shaped |
    # domain-only (a second-opinion member's lone find: safety_net.alone_finds)
    reason: str
    label: str = "PERSON"

    @property
    def direct(self) -> bool:
        """Strong evidence of a person's name (a direct identifier), not just a shape."""
        return self.reason != "name-shaped"


def _covered(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    import bisect

    i = bisect.bisect_right(spans, (start, float("inf"))) - 1
    for s, e in spans[max(0, i - 2) : i + 3]:
        if s < end and start < e:
            return True
    return False


def possible_misses(
    text: str,
    detections: Iterable[Detection],
    allow=None,
    named: Iterable[str] = (),
) -> list[Candidate]:
    """The safety net's candidates in ``text`` given the spans already found; ``named``:
    name parts that strong evidence made names (the cover page, a speaker tag, an
    honorific), whose other capitalised uses are proposed even when they are English words
    (``Day`` at a sentence's start when ``Ms. Day`` is a witness)."""
    import jellyfish

    found = list(detections)
    spans = sorted((d.start, d.end) for d in found)
    known: dict[str, str] = {}
    for d in found:
        if d.label == "PERSON":
            value = text[d.start : d.end]
            key = value.lower()
            if len(key) >= 3 and key not in TITLES and key not in ROLE_WORDS:
                known.setdefault(key, value)
    targets = [(k, len(k), k[0]) for k in known if len(k) >= 5]
    named_keys = {n.lower() for n in named if re.fullmatch(r"[A-Z][a-z'’]+|[A-Z]+", n)}
    public = public_terms(text)
    tags = set(speaker_tag_names(text))
    out: list[Candidate] = []
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        word = match.group(0)
        if word.endswith(("'s", "’s")):
            end -= 2
            word = word[:-2]
        word = word.rstrip("'’")
        end = start + len(word)
        if len(word) < 2 or _covered(spans, start, end):
            continue
        key = word.lower()
        if key in TITLES or key in ROLE_WORDS or key in _CALENDAR:
            continue
        if allow is not None and allow.allows(text, start, end):
            continue
        if public.inside(start, end):
            continue
        reason = None
        if (start, end) in tags:
            reason = "speaker-tag"
        elif _HONORIFIC.search(text, max(0, start - 6), start) and key not in _NOT_AFTER_HONORIFIC:
            reason = "honorific"
        elif key in known and not is_ordinary(key):
            reason = "name-variant"  # an English word (a sentence's "Young") is left alone
        elif (
            key in named_keys
            and word[:1].isupper()
            and word[1:].islower()
            and (_mid_sentence(text, start) or not everyday_word_here(text, start, end))
        ):
            # "Day" where "Ms. Day" testified: shown, not decided; opening a sentence, not
            # where the next word shows the everyday word: a modal before its subject, an
            # adverb before a preposition, an adjective before people ("May I say
            # something?", "Long before that", "Young people")
            reason = "name-word"
        elif len(key) >= 4 and not is_ordinary(key):
            for name, length, first in targets:
                if key[0] != first or abs(len(key) - length) > 2:
                    continue
                limit = 2 if length >= 8 else 1
                if jellyfish.levenshtein_distance(key, name) <= limit:
                    reason = "misspelling"
                    break
            if reason is None and _name_shaped(text, start, word):
                reason = "name-shaped"
        if reason:
            out.append(Candidate(start, end, reason))
    return out


_NAME_PREFIX = re.compile(r"^(?:Mc|Mac|De|Di|Da|Du|La|Le|Van|Von|St|O['’]|D['’])[A-Z]")
_CAMEL = re.compile(r"[a-z][A-Z]")
_ACRONYM_PLURAL = re.compile(r"[A-Z]{2,}s")
_DOUBLED = re.compile(r"(?:(\w)\1)+")  # "FFiinnaall": a PDF's bold text extracted twice


def _name_shaped(text: str, start: int, word: str) -> bool:
    if not word[:1].isupper() or _DOUBLED.fullmatch(word):
        return False
    if _CAMEL.search(word) and not _NAME_PREFIX.match(word):
        return False  # "PageID", "QuickLink": product and field names ("McDonald" is a name)
    if _ACRONYM_PLURAL.fullmatch(word):
        return False  # "MRIs", "CSOs": an acronym's plural (not_names.py)
    if word.isupper():
        # capitals: acronyms ("DECS"), headings ("ADJOURNMENT") and boilerplate are common;
        # a gazetteer name, or a longer word in a line of running text, is still proposed
        if is_name_word(word):
            return True
        if len(word) < 6:
            return False
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", start)
        line = text[line_start : line_end if line_end != -1 else len(text)]
        return any(c.islower() for c in line)
    return True


class SafetyNetDetector(Detector):
    """Options: ``score`` (default 0.3)."""

    name: ClassVar[str] = "safety_net"
    labels: ClassVar[frozenset[str]] = frozenset(LABELS)  # PERSON; a lone find keeps its label
    needs_detections: ClassVar[bool] = True
    stage: ClassVar[int] = 2  # after propagation

    def detect(self, document: Document) -> list[Detection]:
        score = float(self.options.get("score", SCORE))
        found = document.artifacts.get("detections") or []
        allow = document.artifacts.get("allow_list")
        text = document.text
        named = {
            text[m.start : m.end]
            for m in document.artifacts.get("merged") or []
            if m.label == "PERSON"
            and ("cover" in m.votes.get("PERSON", {}) or "pattern" in m.votes.get("PERSON", {}))
        }
        progress = document.artifacts.get(PROGRESS)  # a job's cancellation point
        checkpoint(progress)
        candidates = possible_misses(text, found, allow, named)
        checkpoint(progress)
        candidates = alone_finds(
            text, found, candidates, document.artifacts.get("second_opinion_alone") or ()
        )
        checkpoint(progress)
        # a member's find that a cleaning rule dropped for its shape where its context
        # makes it a name or a place (decisions.possible_miss_label), within the budget
        candidates += [
            Candidate(s, e, "dropped-find", label)
            for s, e, label in dropped_finds(
                text,
                document.artifacts.get("decisions") or (),
                [(d.start, d.end) for d in found] + [(c.start, c.end) for c in candidates],
                already=len(candidates),
            )
        ]
        return [
            Detection(c.start, c.end, c.label, score, self.name, explanation=c.reason)
            for c in candidates
        ]


# Possible misses shown per 1,000 words at most, all reasons together: a
# second-opinion member's lone finds fill only what the other reasons left of it.
BUDGET_PER_1000 = 5.0


def alone_finds(
    text: str,
    found: Iterable[Detection],
    candidates: list[Candidate],
    alone: Iterable[Detection],
    per_1000: float = BUDGET_PER_1000,
) -> list[Candidate]:
    """``candidates`` with the finds of a member that needs a second opinion (the learned
    domain model) that no other member made (``ensemble.second_opinions``), as possible
    misses (reason ``<member>-only``, the member's label): those no span covers by now
    (propagation may have), direct identifiers first, then in the text's order, within what
    the budget leaves (``per_1000`` possible misses per 1,000 words, the other reasons
    counted). A lone find on the words of a bare ``name-shaped`` candidate takes its place
    (the model read the context; the shape did not)."""
    out = list(candidates)
    room = int(per_1000 * len(text.split()) / 1000) - len(out)
    spans = sorted((d.start, d.end) for d in found)
    shaped = {(c.start, c.end): i for i, c in enumerate(out) if c.reason == "name-shaped"}
    taken = sorted((c.start, c.end) for c in out if c.reason != "name-shaped")
    ranked = sorted(alone, key=lambda d: (d.label not in DIRECT_IDENTIFIERS, d.start, d.end))
    for d in ranked:
        if _covered(spans, d.start, d.end) or _covered(taken, d.start, d.end):
            continue
        replaced = [i for (s, e), i in shaped.items() if s < d.end and d.start < e]
        # a PERSON find becomes one span per name part: each counts in the budget
        cost = len(text[d.start : d.end].split())
        if cost > len(replaced) and cost - len(replaced) > room:
            continue  # over the budget (taking a guess's place costs nothing more)
        candidate = Candidate(d.start, d.end, f"{d.detector}-only", d.label)
        for i in replaced:
            out[i] = None
        room -= cost - len(replaced)
        out.append(candidate)
        bisect.insort(taken, (d.start, d.end))
    return sorted((c for c in out if c is not None), key=lambda c: (c.start, c.end))
