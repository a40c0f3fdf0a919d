"""The ensemble: members → candidates → the decision table → merge, then propagation and
the safety net on the merged spans, each decided and merged the same way. Django-free.

    ensemble = Ensemble([PresidioDetector(), SpacyDetector(), ...], allow_list=terms)
    result = ensemble.run(Document(text, metadata))
    result.spans      # merged, non-overlapping MergedSpan (PERSON as name parts)
    result.errors     # {detector name: error in words} — the others' spans are kept
    result.by_detector  # {detector name: its cleaned detections} (per-detector figures)

One failing detector does not stop the others; its error is reported. Detectors run in
stages (``stage_of``): those that declare ``needs_detections`` (propagation) run after
the others, and the safety net (``stage = 2``) after them, each stage with the merged
spans of the earlier ones in ``document.artifacts["detections"]`` (and ``"merged"``).
"""

from __future__ import annotations

import bisect
import gc
import logging
import re
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from engine.detectors.allow import AllowList
from engine.detectors.base import Detection, Detector, Document
from engine.detectors.clean import clean_members
from engine.detectors.decisions import DROPPED, POSSIBLE_MISS, SPAN, Decision
from engine.detectors.given import given_names
from engine.detectors.merge import MergedSpan, merge
from engine.progress import Progress, ProgressFn

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class EnsembleResult:
    spans: list[MergedSpan]
    errors: dict[str, str] = field(default_factory=dict)
    by_detector: dict[str, list[Detection]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)  # member → seconds detecting
    # stage → seconds: "decide" (the decision table), "second_opinions", "merge"
    stages: dict[str, float] = field(default_factory=dict)
    # one per candidate of each member: span, possible miss or dropped by a named rule
    decisions: list[Decision] = field(default_factory=list)
    # member name → whether it needs a second opinion (``Detector.second_opinion``)
    members: dict[str, bool] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


class EnsembleError(RuntimeError):
    """Every detector failed: nothing to propose."""


# A second-opinion member's lone find is shown only as a person or a place written as a
# name (title-case words, no digits), in at most a few words: on layouts the model never
# saw, page stamps, margin numbers and clock stamps come out as places, phone numbers,
# heights and dates (measured on the real-world files), and the structured labels are
# the patterns' business.
ALONE_LABELS = frozenset({"PERSON", "LOCATION"})
ALONE_MAX_WORDS = 4
# a second-opinion member's two lone name words that a given-name list and the English
# word list agree on become spans (``_given_name_pairs``)
GIVEN_NAME_PAIR = "second-opinion-given-name"
# its lone word right after a name another member found, that no English text uses, joins
# the vote too (``_after_found_name``: "Who is Destiny Malatesta?", where the token
# classifier cut the surname into a word piece and spaCy saw no name)
AFTER_NAME = "second-opinion-after-name"
_NAME_WORD = re.compile(r"[A-Z][a-z'’]+(?:-[A-Z][a-z'’]+)?")
_NAME_WRITTEN = re.compile(r"[A-Z][a-z'’]+(?:[-' ][A-Z][a-z'’]+)*(?:\.?)")
_JOINS, _DISAGREES, _ALONE = "joins", "disagrees", "alone"


def second_opinions(result: EnsembleResult, document: Document) -> dict[str, list[Detection]]:
    """The first stage's cleaned detections that vote (``{member: detections}``).

    A member that declares ``second_opinion`` (the learned domain model) votes only where
    another member found the same words with the same label (its span lies inside the
    other's): it adds support, never moves a boundary or a label. A find that overlaps
    another member's span otherwise is dropped (rule ``second-opinion-disagrees``: those
    words are shown anyway); a find no other member touched is left to the safety net as
    a possible miss (``document.artifacts["second_opinion_alone"]``) when its label is a
    person or a place written as a name (``ALONE_LABELS``, ``_shown_alone``), else
    dropped (``second-opinion-alone-shape``), unless the name lists agree with it: a known
    given name and a word no English text uses, side by side, join the vote
    (``GIVEN_NAME_PAIR``, ``_given_name_pairs``), and so does a lone word no English text
    uses right after another member's name (``AFTER_NAME``). The decisions say which."""
    seconds = {name for name, needs in result.members.items() if needs}
    voting = {k: v for k, v in result.by_detector.items() if k not in seconds}
    others = sorted((d.start, d.end, d.label) for ds in voting.values() for d in ds)
    text = document.text
    alone: list[Detection] = []
    outcome: dict[tuple, tuple[str, str]] = {}
    for name in sorted(seconds & set(result.by_detector)):
        joined = []
        found = result.by_detector[name]
        verdicts = [_verdict(others, d) for d in found]
        paired = _given_name_pairs(text, found, verdicts)
        for d, verdict in zip(found, verdicts, strict=True):
            key = (d.detector, d.start, d.end, d.label)
            if verdict == _JOINS:
                joined.append(d)
            elif verdict == _DISAGREES:
                outcome[key] = (DROPPED, "second-opinion-disagrees")
            elif key in paired:
                joined.append(d)
                outcome[key] = (SPAN, GIVEN_NAME_PAIR)
            elif verdict == _ALONE and _after_found_name(text, others, d):
                joined.append(d)
                outcome[key] = (SPAN, AFTER_NAME)
            elif d.label in ALONE_LABELS and _shown_alone(text[d.start : d.end]):
                alone.append(d)
                outcome[key] = (POSSIBLE_MISS, "no-second-opinion")
            else:
                outcome[key] = (DROPPED, "second-opinion-alone-shape")
        voting[name] = joined
    document.artifacts["second_opinion_alone"] = alone
    if outcome:
        result.decisions[:] = [
            replace(x, outcome=outcome[k][0], rule=outcome[k][1])
            if x.outcome == SPAN and (k := (x.detector, x.start, x.end, x.label)) in outcome
            else x
            for x in result.decisions
        ]
    return voting


def _given_name_pairs(text: str, found: list[Detection], verdicts: list[str]) -> set[tuple]:
    """The keys of a second-opinion member's lone PERSON finds that the name lists agree
    with: a known given name and, after one space, a word no English text uses (``Shelly
    Landry and a friend of hers``, which no other member found). Both join the vote
    (rule ``GIVEN_NAME_PAIR``); ``Colton English`` (an English word) stays a possible miss.
    """
    from engine.detectors.names import is_given_name
    from engine.detectors.ordinary import is_name_word, is_ordinary

    keys: set[tuple] = set()
    pairs = sorted(zip(found, verdicts, strict=True), key=lambda p: (p[0].start, p[0].end))
    for (a, va), (b, vb) in zip(pairs, pairs[1:], strict=False):
        if va != _ALONE or vb != _ALONE or a.label != "PERSON" or b.label != "PERSON":
            continue
        first, last = text[a.start : a.end], text[b.start : b.end]
        if text[a.end : b.start] != " " or not (
            _NAME_WORD.fullmatch(first) and _NAME_WORD.fullmatch(last)
        ):
            continue
        if (
            is_given_name(first)
            and not is_ordinary(first)
            and (not is_ordinary(last) or is_name_word(last))
        ):
            keys.add((a.detector, a.start, a.end, a.label))
            keys.add((b.detector, b.start, b.end, b.label))
    return keys


def _after_found_name(text: str, others: list[tuple[int, int, str]], d: Detection) -> bool:
    """A lone PERSON word right after (one space, same line) a PERSON span another member
    found, that no English text uses or a name gazetteer holds (``Destiny Malatesta``;
    not ``Destiny Said``)."""
    from engine.detectors.ordinary import is_name_word, is_ordinary

    word = text[d.start : d.end]
    if d.label != "PERSON" or text[d.start - 1 : d.start] != " " or not _NAME_WORD.fullmatch(word):
        return False
    if is_ordinary(word) and not is_name_word(word):
        return False
    i = bisect.bisect_left(others, (d.start, -1, ""))
    return any(
        e == d.start - 1 and label == "PERSON" for _s, e, label in others[max(0, i - 16) : i]
    )


def _shown_alone(value: str) -> bool:
    return len(value.split()) <= ALONE_MAX_WORDS and bool(_NAME_WRITTEN.fullmatch(value))


def _verdict(others: list[tuple[int, int, str]], d: Detection) -> str:
    i = bisect.bisect_left(others, (d.start, -1, ""))
    overlaps = False
    # spans starting before d may still overlap it: look back over a few
    for k in range(max(0, i - 8), len(others)):
        s, e, label = others[k]
        if s >= d.end:
            break
        if e > d.start:
            if label == d.label and s <= d.start and d.end <= e:
                return _JOINS
            overlaps = True
    return _DISAGREES if overlaps else _ALONE


def freeze_loaded() -> None:
    """Put every object alive now out of the garbage collector's reach (``gc.freeze``).
    Called once a process has loaded and warmed its models: they are about 420,000 Python
    objects, and each full collection during an annotation walked them all (0.2 s of a
    15,000-word hearing, on the path the hearing waits for). Objects made later are
    collected as before."""
    gc.collect()
    gc.freeze()


def stage_of(detector: Detector) -> int:
    """When a detector runs: 0 = first (models, patterns, cover page); 1 = on their merged
    spans (propagation: ``needs_detections``); 2 = last (the safety net, ``stage = 2``)."""
    return int(getattr(detector, "stage", 1 if getattr(detector, "needs_detections", False) else 0))


class Ensemble:
    def __init__(
        self,
        detectors: Iterable[Detector],
        allow_list: AllowList | Iterable[str] = (),
        *,
        parallel: bool = False,
    ) -> None:
        self.detectors = list(detectors)
        self.parallel = parallel
        names = [d.name for d in self.detectors]
        if len(set(names)) != len(names):
            raise ValueError(f"detector names must be unique: {names}")
        self.allow = allow_list if isinstance(allow_list, AllowList) else AllowList(allow_list)

    def load(self) -> None:
        for detector in self.detectors:
            detector.ensure_loaded()

    def load_safely(self) -> dict[str, str]:
        """Load every detector; a failing one is reported by ``run`` later, not here."""
        failed = {}
        for detector in self.detectors:
            try:
                detector.ensure_loaded()
            except Exception as exc:
                failed[detector.name] = exc.__class__.__name__
        return failed

    def run(
        self,
        document: Document,
        progress: ProgressFn | None = None,
        only: Iterable[str] | None = None,
    ) -> EnsembleResult:
        """Run every detector (or those named in ``only``) on ``document``."""
        wanted = set(only) if only is not None else None
        detectors = [d for d in self.detectors if wanted is None or d.name in wanted]
        first = [d for d in detectors if stage_of(d) == 0]
        later = [d for d in detectors if stage_of(d) > 0]
        result = EnsembleResult(
            spans=[], members={d.name: bool(getattr(d, "second_opinion", False)) for d in detectors}
        )
        total = len(detectors) + 1
        # each stage: its members prepare and run → their candidates are decided (clean:
        # features and the decision table) → merge; the later stages (propagation, the
        # safety net) read the merged spans of the stages before them
        n = 0
        found: dict[str, list[Detection]] = {}
        for detector in self._run_stage(first, document, result, found):
            n += 1
            if progress:
                progress(Progress(n, total, f"{detector.name} done"))
        self._decide(document, result, found)
        voting = self._timed(result, "second_opinions", second_opinions, result, document)
        spans = self._merge(result, voting, document.text)
        for stage in sorted({stage_of(d) for d in later}):
            document.artifacts["detections"] = [s.as_detection() for s in spans]
            document.artifacts["merged"] = spans  # with their votes (who found what)
            found = {}
            for detector in self._run_stage(
                [d for d in later if stage_of(d) == stage], document, result, found
            ):
                n += 1
                if progress:
                    progress(Progress(n, total, f"{detector.name} done"))
            self._decide(document, result, found)
            voting |= {k: v for k, v in result.by_detector.items() if k not in voting}
            spans = self._merge(result, voting, document.text)
        if detectors and len(result.errors) == len(detectors):
            raise EnsembleError(
                "every detector failed: "
                + "; ".join(f"{k}: {v}" for k, v in sorted(result.errors.items()))
            )
        result.spans = spans
        return result

    def _run_stage(
        self,
        members: list[Detector],
        document: Document,
        result: EnsembleResult,
        found: dict[str, list[Detection]],
    ) -> Iterable[Detector]:
        """Run a stage's members, each member's raw finds into ``found`` (in the order
        they finish: the members run here in their order, then those run apart); yields
        each member as it finishes."""
        for detector in members:
            try:
                detector.prepare(document)  # e.g. a head on the shared parse
            except Exception:  # noqa: BLE001 - reported when the member runs (_detect)
                pass
        apart = [d for d in members if self.parallel and d.runs_apart] if len(members) > 1 else []
        pending = []
        if apart:
            # ONNX releases the GIL: the transformer runs on a core of its own while spaCy
            # and Presidio run here (docs/speed.md). Progress is reported from this thread.
            pool = ThreadPoolExecutor(max_workers=len(apart), thread_name_prefix="detector")
            pending = [(d, pool.submit(self._detect, d, document, result)) for d in apart]
            pool.shutdown(wait=False)
        for detector in [d for d in members if d not in apart]:
            raw = self._detect(detector, document, result)
            if raw is not None:
                found[detector.name] = raw
            yield detector
        for detector, future in pending:
            raw = future.result()
            if raw is not None:
                found[detector.name] = raw
            yield detector

    def _detect(
        self, detector: Detector, document: Document, result: EnsembleResult
    ) -> list[Detection] | None:
        """A member's raw finds, or None when it failed (its error is reported)."""
        started = time.perf_counter()
        try:
            detector.ensure_loaded()
            return detector.detect(document)
        except Exception as exc:  # one detector's failure must not lose the others
            logger.warning("detector %s failed: %s", detector.name, exc.__class__.__name__)
            result.errors[detector.name] = f"{exc.__class__.__name__}: {str(exc)[:200]}"
            return None
        finally:
            result.seconds[detector.name] = round(time.perf_counter() - started, 3)

    def _decide(
        self, document: Document, result: EnsembleResult, found: dict[str, list[Detection]]
    ) -> None:
        """Decide a stage's candidates, member by member (``clean``: the decision table);
        the decisions are also where the safety net and propagation read them."""
        started = time.perf_counter()
        # The allow-list never hides a name this transcript gives: its cover page, speaker
        # tags, spellings and honorifics protect their words (propagation and the safety
        # net read the same list).
        allow = document.artifacts.get("allow_list")
        if allow is None:
            allow = document.artifacts["allow_list"] = self.allow.protecting(
                given_names(document.text, document.metadata)
            )
        for name, (kept, decided, error) in clean_members(document.text, found, allow).items():
            if error is not None:
                logger.warning("detector %s failed: %s", name, error.__class__.__name__)
                result.errors[name] = f"{error.__class__.__name__}: {str(error)[:200]}"
                continue
            result.by_detector[name] = kept
            result.decisions.extend(decided)
        document.artifacts["decisions"] = result.decisions
        _add(result.stages, "decide", time.perf_counter() - started)

    def _merge(
        self, result: EnsembleResult, voting: dict[str, list[Detection]], text: str
    ) -> list[MergedSpan]:
        pooled = [d for name in sorted(voting) for d in voting[name]]
        return self._timed(result, "merge", merge, pooled, text)

    @staticmethod
    def _timed(result: EnsembleResult, stage: str, fn, *args):
        started = time.perf_counter()
        try:
            return fn(*args)
        finally:
            _add(result.stages, stage, time.perf_counter() - started)


def _add(stages: dict[str, float], stage: str, seconds: float) -> None:
    stages[stage] = round(stages.get(stage, 0.0) + seconds, 3)
