"""Document-level propagation: what is found once is marked everywhere. Django-free.

A name part, CDCR number or place found anywhere in a transcript (by the other
detectors, after cleaning and merging) is proposed at every other occurrence, with
its own provenance (``propagation``) so a reviewer can tell it apart. Misspelled
repeats of name parts (``Stevenson`` / ``Stevenston``) are found by edit distance
(1 for parts of 5+ letters, 2 for 9+) or by equal Metaphone codes with edit distance
2, among capitalised words only. A name that is no ordinary English word
(``ordinary.is_ordinary``: frequency and name gazetteers, never "the transcript also
writes it in lower case") is proposed in every case variant (``pellegrino``,
``Pellegrino``, ``PELLEGRINO``); one that is also an English word (``Young``) where it
is capitalised in mid-sentence. The ensemble runs this detector after the others and
gives it their merged spans in ``document.artifacts["detections"]``.
"""

from __future__ import annotations

import re
from typing import ClassVar

from engine import vocab
from engine.detectors.base import Detection, Detector, Document
from engine.detectors.cover import COMMON_WORDS, find_word
from engine.detectors.decisions import LEARNED_MODELS, LOWER_AGREED, learned_model
from engine.detectors.names import TITLES, is_given_name
from engine.detectors.ordinary import is_ordinary
from engine.detectors.public import is_title_or_role
from engine.detectors.recognizers.locations import (
    THEN_PLACE,
    is_known_place,
    is_state_or_country,
)
from engine.detectors.recognizers.persons import _TITLE_WORDS
from engine.progress import PROGRESS, checkpoint, watching
from engine.spelling import is_misspelling

PROPAGATED = ("PERSON", "CDCR_ID", "LOCATION", "ORGANIZATION")
# a conjunct after or before a found name or place: "Varga, Okonkwo and Pell", "Ardenne and Velmont"
_CONJ_WORD = r"(?P<w>[A-Z][a-z'’]+(?:-[A-Z][a-z'’]+)?|[A-Z]{2,}(?:-[A-Z]{2,})?)"
_CONJ_AFTER = re.compile(rf"(?:,[ ](?:and[ ]|or[ ])?|[ ](?:and|or|&)[ ]){_CONJ_WORD}(?![\w'’-])")
_CONJ_BEFORE = re.compile(rf"(?<![\w'’.-]){_CONJ_WORD}(?:,[ ]|[ ](?:and|or|&)[ ])$")
_CAPWORD = re.compile(r"(?<![\w-])[A-Z][A-Za-z'’]*[a-zA-Z](?:-[A-Z][a-z]+)?(?![\w-])")
_NEVER = frozenset(
    [w.lower() for w in (*vocab.MONTHS, *vocab.WEEKDAYS)]
    + """okay yes yeah no sir madam mister ma'am state county city court board parole
    hearing hearings panel commissioner deputy presiding inmate attorney district
    prison""".split()
)


_SENTENCE_END = re.compile(r"(?:^|[.!?:;\n\"“(—-]|\.\.\.)\s*$")
_ABBREVIATION = re.compile(r"\b(?:Mr|Mrs|Ms|Mx|Dr|St|Jr|Sr|MR|MRS|MS|DR)\.\s*$")


def _mid_sentence(text: str, start: int) -> bool:
    """Whether a word at ``start`` follows other words of its sentence (its capital is
    the writer's choice, not the sentence's)."""
    before = text[max(0, start - 8) : start]
    if _ABBREVIATION.search(before):
        return True  # "Mr. Young": the period ends an abbreviation, not a sentence
    return not _SENTENCE_END.search(before[-4:])


def _well_supported(d: Detection, votes: dict | None) -> bool:
    """A name that is also an English word ("Young", "Landscaping" by one model) is copied
    only when the cover page or a hand-written rule names it, or two independent models
    agree (Presidio's NER is spaCy's: one model)."""
    if votes is None:  # detections without their merge record: the detector names
        parts = set(d.detector.split("+"))
        return "cover" in parts or "patterns" in parts or len(parts & _MODELS) >= 2
    return "cover" in votes or "pattern" in votes or len(set(votes) & _MODELS) >= 2


_MODELS = frozenset({"spacy", "transformer", "presidio"})


_TWO_NAMES = re.compile(r"([A-Z][a-z]+) ([A-Z][a-z]+)")


def _strong(d: Detection, votes: dict | None) -> bool:
    """Found by the cover page or a hand-written rule (a speaker tag, an honorific)."""
    if votes is None:
        parts = set(d.detector.split("+"))
        return "cover" in parts or "patterns" in parts
    return "cover" in votes or "pattern" in votes


def _lower_case_name(value: str, d: Detection, votes: dict | None) -> bool:
    """A lower-case name that a hand-written rule made a name (``Mr. griffiths``) and that
    is no everyday English word (Zipf below 4): copied in lower case only."""
    if not value.isalpha() or not value.islower() or is_ordinary(value, 4.0):
        return False
    if votes is None:
        return "patterns" in set(d.detector.split("+"))
    return "pattern" in votes or "cover" in votes


def _short_name(value: str, d: Detection, votes: dict | None) -> bool:
    """A two-letter name (``Bo``, ``Lo``) is copied only when the cover page or a
    hand-written rule (a speaker tag, an honorific) named it, in title case."""
    if not re.fullmatch(r"[A-Z][a-z]", value):
        return False
    if votes is None:
        parts = set(d.detector.split("+"))
        return "cover" in parts or "patterns" in parts
    return "cover" in votes or "pattern" in votes


# a sentence's subject before a verb of speech or movement, or before "and" and another
# name ("Ng told me", "Ng and Ms. Ho were there"); "Long before that", "May I" are not
_SUBJECT_AFTER = re.compile(
    r"(?:['’]s)?[ ]+(?:said|says|told|tells|asked|asks|called|testified|replied|answered|"
    r"yelled|screamed|whispered|came|went|left|drove|walked|ran|arrived|showed|saw|knew|"
    r"wanted|stayed|lived)\b|(?:['’]s)?[ ]+(?:and|or)[ ]+(?:Mr|Mrs|Ms|Dr|Officer|Detective)\.?[ ]+[A-Z]"
)


def _subject_here(text: str, end: int) -> bool:
    return bool(_SUBJECT_AFTER.match(text, end))


def _surname_starts(text: str, found: list) -> set[int]:
    """Where a PERSON name part that is no English word starts (``Verbeek``)."""
    return {
        d.start
        for d in found
        if d.label == "PERSON"
        and not is_ordinary(text[d.start : d.end])
        and len(text[d.start : d.end]) > 2
    }


def _given_before_surname(text: str, d: Detection, surnames: set[int]) -> bool:
    """An English word given as a first name before a surname that is no English word
    (``Summer Verbeek``, ``Hope Dekker``): this transcript makes it a name, whoever found it."""
    value = text[d.start : d.end]
    return (
        value[:1].isupper()
        and value[1:].islower()
        and text[d.end : d.end + 1] == " "
        and d.end + 1 in surnames
    )


# a title or rank right before the name ("Detective Pak", "Officer Long", "Mr. Young")
_TITLE_BEFORE = re.compile(rf"\b{_TITLE_WORDS}\.?[ \t]+$")


def _after_title(text: str, start: int) -> bool:
    """A capitalised word a model called a person right after a title or rank: the title
    makes it a name in this transcript (``Detective Pak``: copied to ``Pak told me``)."""
    return bool(
        text[start : start + 1].isupper() and _TITLE_BEFORE.search(text, max(0, start - 16), start)
    )


def _in_running_text(text: str, start: int, end: int) -> bool:
    """Whether the words at ``[start, end)`` stand in a line of running text (lower-case
    words beside them), not in a heading, a caption or a paragraph in capitals."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start : len(text) if line_end < 0 else line_end]
    return any(w.islower() for w in re.findall(r"[A-Za-z]+", line))


def _given_before_surname_named(text: str, strong: set[str]) -> list[tuple[int, int]]:
    """A capitalised word that is no English word (or is a given name) right before a
    surname a hand-written rule named ("a Kwasi Akyeampong" where "Mr. akyeampong" is
    said): that person's given name, copied like any name part."""
    surnames = sorted((n for n in strong if " " not in n and len(n) > 2), key=len, reverse=True)
    if not surnames:
        return []
    alternatives = "|".join(re.escape(n) for n in surnames)
    pattern = re.compile(rf"(?<![\w'’.-])([A-Z][a-z'’]+)[ ](?i:{alternatives})(?![\w'’-])")
    out = []
    for m in pattern.finditer(text):
        word = m.group(1)
        key = word.lower()
        if (
            len(word) >= 3
            and key not in TITLES
            and key not in _NEVER
            and not is_title_or_role(word)
            and (not is_ordinary(key) or is_given_name(word))
            and not is_known_place(word)
        ):
            out.append(m.span(1))
    return out


# the hand-written rules that name a business, an employer or an institution in its
# context (recognizers/organizations.py, venues.py), by their names where the merge
# records are not at hand: what they name is that body wherever it is written
_BODY_RULES = frozenset(
    {"employer", "employer-firm", "business-named", "job-at", "institution-head", "venue"}
)


def _bodies(text: str, found: list, merged: list | None, persons: set[str], allow) -> set[str]:
    """The names a hand-written rule made an employer or a business ("I work at Hartley
    Brandt", "Ardenvale is a trucking outfit"): the propagation copies each whole, as a
    body, to its other mentions, where the statistical models split a firm of two surnames
    into name parts or call a company that reads like a town a place. Not a name a rule
    also gives a person ("Mr. Kessler Vance"), nor a known place, nor one word that is a
    given name or an everyday word ("On Church, near the school")."""
    if merged is not None:  # a hand-written rule's vote ("pattern": merge.model_of)
        ruled = [
            (m.start, m.end)
            for m in merged
            if m.label == "ORGANIZATION" and "pattern" in m.votes.get("ORGANIZATION", {})
        ]
    else:
        ruled = [
            (d.start, d.end)
            for d in found
            if d.label == "ORGANIZATION" and d.explanation in _BODY_RULES
        ]
    out = set()
    for start, end in ruled:
        value = text[start:end]
        if (
            value[:1].isupper()
            and value.lower() not in persons
            and not (" " not in value and (is_given_name(value) or is_ordinary(value)))
            and not is_known_place(value)
            and (allow is None or value not in allow)
        ):
            out.add(value)
    return out


def _norm_id(value: str) -> str:
    return re.sub(r"[^0-9a-z]", "", value.lower())


class PropagationDetector(Detector):
    """Options: ``fuzzy`` (default true), ``min_length`` (default 3), ``score`` (0.7)."""

    name: ClassVar[str] = "propagation"
    labels: ClassVar[frozenset[str]] = frozenset(PROPAGATED)
    needs_detections: ClassVar[bool] = True

    def detect(self, document: Document) -> list[Detection]:
        text = document.text
        found = document.artifacts.get("detections") or []
        merged = document.artifacts.get("merged")
        votes = {(m.start, m.end): m.votes.get("PERSON", {}) for m in merged or []}
        allow = document.artifacts.get("allow_list")
        fuzzy = bool(self.options.get("fuzzy", True))
        min_len = int(self.options.get("min_length", 3))
        score = float(self.options.get("score", 0.7))
        out: list[Detection] = []
        names: dict[str, str] = {}  # lower → original
        lower_names: set[str] = set()  # names found in lower case by a hand-written rule
        places: set[str] = set()
        ids: set[str] = set()
        progress = document.artifacts.get(PROGRESS)  # a job's cancellation point
        surnames = _surname_starts(text, found)
        for d in found:
            checkpoint(progress)
            label = d.label
            value = text[d.start : d.end]
            if label == "PERSON":
                key = value.lower()
                support = votes.get((d.start, d.end))
                if (
                    (len(value) >= min_len or _short_name(value, d, support))
                    and (
                        value[:1].isupper()
                        or not is_ordinary(key)
                        or _lower_case_name(value, d, support)
                    )
                    and key not in TITLES
                    and key not in _NEVER
                    and not is_title_or_role(value)
                    and (
                        not is_ordinary(key)
                        or _well_supported(d, votes.get((d.start, d.end)))
                        or _given_before_surname(text, d, surnames)
                        or _after_title(text, d.start)
                    )
                ):
                    names.setdefault(key, value)
                    if value.islower() and _lower_case_name(value, d, support):
                        lower_names.add(key)
            elif label == "LOCATION":
                if (
                    len(value) >= 3
                    and value[:1].isupper()
                    and value.lower() not in _NEVER
                    and (not is_ordinary(value) or is_known_place(value))
                ):
                    places.add(value)
            elif label == "CDCR_ID":
                ids.add(value)
        # "a Gbolahan Ilupeju" that the models alone called a body or a place, where a
        # hand-written rule found "Ilupeju" a name ("Mr. ilupeju"): a person's full name
        strong = {
            text[d.start : d.end].lower()
            for d in found
            if d.label == "PERSON" and _strong(d, votes.get((d.start, d.end)))
        }
        for d in found:
            value = text[d.start : d.end]
            if (
                d.label in {"ORGANIZATION", "LOCATION"}
                and set(d.detector.split("+")) <= _MODELS
                and (m := _TWO_NAMES.fullmatch(value))
                and m.group(2).lower() in strong
                and (not is_ordinary(m.group(1)) or is_given_name(m.group(1)))
                and not is_known_place(value)
            ):
                out.append(
                    Detection(d.start, d.end, "PERSON", 0.9, self.name, explanation="named-surname")
                )
                names.setdefault(m.group(1).lower(), m.group(1))
        for s, e in _given_before_surname_named(text, strong):
            names.setdefault(text[s:e].lower(), text[s:e])
            out.append(Detection(s, e, "PERSON", score, self.name, explanation="given name"))
        bodies = _bodies(text, found, merged, strong, allow)
        for value in sorted(bodies):
            checkpoint(progress)
            for s, e in find_word(text, value, ignore_case=False):
                out.append(
                    Detection(s, e, "ORGANIZATION", 0.85, self.name, explanation="same-body")
                )
        out.extend(
            _models_lower_case(text, names, document.artifacts.get("decisions") or [], score)
        )
        plain: dict[str, str] = {}  # names that are no English word: every case variant
        for key, value in sorted(names.items()):
            checkpoint(progress)
            if allow is not None and value in allow:
                continue
            if not is_ordinary(key):
                plain[key] = value
                continue
            # also an English word ("Young", "Long"): capitalised in mid-sentence, or
            # opening a sentence as the subject of a verb of speech or movement ("Ng told
            # me", "Ng and Ms. Ho were there"), or in capitals inside running text where
            # the name was well supported above ("Was HOPE there?": a reporter's capitals for
            # a name, not a heading's)
            for s, e in find_word(text, value, capitalised=True):
                word = text[s:e]
                if word[1:].islower() and (
                    _mid_sentence(text, s)
                    or _subject_here(text, e)
                    or (text[e : e + 1] == " " and e + 1 in surnames)  # "Hope Ellery, the ..."
                ):
                    out.append(Detection(s, e, "PERSON", score, self.name, explanation="same name"))
                elif len(word) > 2 and word.isupper() and _in_running_text(text, s, e):
                    out.append(Detection(s, e, "PERSON", score, self.name, explanation="same name"))
            if key in lower_names:
                # a lower-case name an honorific made a name ("Mr. griffiths"): its other
                # lower-case uses, case-sensitively ("Did griffiths --")
                for s, e in find_word(text, key, ignore_case=False):
                    out.append(
                        Detection(
                            s, e, "PERSON", score, self.name, explanation="same lower-case name"
                        )
                    )
        if plain:
            # one pass for all of them ("pellegrino", "Pellegrino", "PELLEGRINO")
            alternatives = "|".join(re.escape(v) for v in sorted(plain, key=len, reverse=True))
            # a name glued to a number ("Breyer16:17" in a word index) is still the name
            pattern = re.compile(
                rf"(?<![^\W\d_])(?<!-)(?:{alternatives})(?![^\W\d_]|-\w)", re.IGNORECASE
            )
            for match in pattern.finditer(text):
                checkpoint(progress)
                out.append(
                    Detection(
                        match.start(),
                        match.end(),
                        "PERSON",
                        score,
                        self.name,
                        explanation="same name",
                    )
                )
        for place in sorted(places - bodies):
            checkpoint(progress)
            if allow is not None and place in allow:
                continue
            for s, e in find_word(text, place, ignore_case=False):
                out.append(Detection(s, e, "LOCATION", score, self.name, explanation="same place"))
        if ids:
            wanted = {_norm_id(v) for v in ids}
            for v in sorted(ids):
                checkpoint(progress)
                for s, e in find_word(text, v):
                    out.append(Detection(s, e, "CDCR_ID", score, self.name, explanation="same ID"))
            # the same number written differently ("V 12345" / "V-12345")
            for m in re.finditer(r"(?<![\w-])[A-Z]{1,2}[ -]?\d{4,6}(?![\w-])", text):
                checkpoint(progress)
                if _norm_id(m.group(0)) in wanted:
                    out.append(
                        Detection(
                            m.start(), m.end(), "CDCR_ID", score, self.name, explanation="same ID"
                        )
                    )
        checkpoint(progress)
        if fuzzy and names:
            out.extend(self._misspellings(text, names, score * 0.9, allow, progress))
        checkpoint(progress)
        # the copies are anchors too ("from Harry Doran, Sarpong and ...": Doran copied)
        with watching(progress):  # coordinated's checkpoint()
            out.extend(coordinated(text, [*found, *out], allow, score))
        return out

    def _misspellings(self, text, names, score, allow, progress=None) -> list[Detection]:
        candidates: dict[str, list[tuple[int, int]]] = {}
        for m in _CAPWORD.finditer(text):
            word = m.group(0)
            key = word.lower()
            if (
                key in names
                or word.isupper()  # headers in capitals ("DECISION PAGE 1"): exact repeats only
                or len(word) < 4
                or key in COMMON_WORDS
                or key in _NEVER
                or key in TITLES
                or is_ordinary(key)
            ):
                continue
            candidates.setdefault(word, []).append(m.span())
        targets = [n for n in names if len(n) >= 5]
        out = []
        for word, spans in candidates.items():
            checkpoint(progress)
            if allow is not None and word in allow:
                continue
            lw = word.lower()
            for name in targets:
                if is_misspelling(lw, name):
                    for s, e in spans:
                        out.append(
                            Detection(
                                s,
                                e,
                                "PERSON",
                                score,
                                self.name,
                                explanation="misspelled repeat",
                                original=name,
                            )
                        )
                    break
        return out


def coordinated(text: str, found, allow=None, score: float = 0.7) -> list[Detection]:
    """Conjuncts share their kind: an uncovered capitalised word joined by a comma, ``and``
    or ``or`` to a found PERSON or LOCATION (``Varga, Okonkwo and Pell``, ``the counties of
    Ardenne and Velmont``) gets its label, when it is no ordinary English word (for PERSON also a
    gazetteer name; never a known place, a title, a role or a public term). Lists are
    followed word by word in both directions. Words in capitals only beside a name in
    capitals. A person's conjunct that the statistical models alone called a body or a
    place, as one word, becomes a PERSON (``Dorvish and Tembley``)."""
    import bisect

    from engine.detectors.ordinary import is_name_word
    from engine.detectors.public import public_terms

    spans = sorted((d.start, d.end) for d in found)
    starts = [s for s, _ in spans]
    # one word that only the statistical models named, as a body or a place ("Dorvish and
    # Tembley" with Tembley an ORGANIZATION): a person's conjunct overrules that guess
    guessed = {
        (d.start, d.end)
        for d in found
        if d.label in {"ORGANIZATION", "LOCATION"}
        and set(d.detector.split("+")) <= _MODELS
        and " " not in text[d.start : d.end]
    }

    def covered(s: int, e: int) -> bool:
        i = bisect.bisect_right(starts, e) - 1
        while i >= 0 and spans[i][0] < e:
            if spans[i][1] > s:
                return True
            if s - spans[i][0] > 200:
                break
            i -= 1
        return False

    public = public_terms(text)
    taken: set[tuple[int, int]] = set()
    out: list[Detection] = []

    def fits(label: str, word: str, s: int, e: int, upper: bool) -> bool:
        key = word.lower()
        if word.isupper() != upper or len(word) < 3 or (s, e) in taken:
            return False
        if covered(s, e) and not (label == "PERSON" and (s, e) in guessed):
            return False
        if key in TITLES or key in _NEVER or is_title_or_role(word) or public.inside(s, e):
            return False
        if allow is not None and allow.allows(text, s, e):
            return False
        if label == "PERSON":
            if is_known_place(word.title()) and not is_name_word(key):
                return False
            return not is_ordinary(key) or is_name_word(key)
        if is_state_or_country(word.title()):
            return False  # "Fresno, California": a city's state, not a list of places
        return not is_ordinary(key) or is_known_place(word.title())

    labelled = {(d.start, d.end): d.label for d in found}
    # one word that only the statistical models called a person or a body, where a list
    # of places goes on ("lived in Garrison for a while, then Whitfield"): the place
    # overrules it
    person_guess = {
        (d.start, d.end)
        for d in found
        if d.label in {"PERSON", "ORGANIZATION"}
        and set(d.detector.split("+")) <= _MODELS | {"domain"}
        and " " not in text[d.start : d.end]
    }

    for d in found:
        checkpoint()  # a job's cancellation point (engine.progress.watching)
        if d.label not in {"PERSON", "LOCATION"} or d.detector == "safety_net":
            continue
        value = text[d.start : d.end]
        if not value[:1].isupper():
            continue
        upper = value.isupper() and len(value) > 1
        end = d.end
        while m := _CONJ_AFTER.match(text, end):
            s, e = m.span("w")
            if labelled.get((s, e)) == d.label:  # a list goes on through found names
                end = e
                continue
            if not fits(d.label, m.group("w"), s, e, upper):
                break
            taken.add((s, e))
            out.append(_conjunct(s, e, d.label, score, (s, e) in guessed))
            end = e
        start = d.start
        while m := _CONJ_BEFORE.search(text, max(0, start - 40), start):
            s, e = m.span("w")
            if labelled.get((s, e)) == d.label:
                start = s
                continue
            if not fits(d.label, m.group("w"), s, e, upper):
                break
            taken.add((s, e))
            out.append(_conjunct(s, e, d.label, score, (s, e) in guessed))
            start = s
        # the next place of a list ("in Garrison for a while, then Whitfield")
        if d.label == "LOCATION" and (m := THEN_PLACE.match(text, d.end)):
            s, e = m.span("span")
            word = m.group("span")
            if (s, e) in person_guess and not is_given_name(word) and (s, e) not in taken:
                taken.add((s, e))
                out.append(_conjunct(s, e, "LOCATION", score, True))
            elif labelled.get((s, e)) != "LOCATION" and fits("LOCATION", word, s, e, upper):
                taken.add((s, e))
                out.append(_conjunct(s, e, "LOCATION", score, False))
    return out


def _conjunct(s: int, e: int, label: str, score: float, overrule: bool) -> Detection:
    """A conjunct's span; over a model's one-word guess it decides the label (merge:
    ``coordinated-name`` is a hand-written rule with its context)."""
    if overrule:
        return Detection(s, e, label, 0.85, "propagation", explanation="coordinated-name")
    return Detection(s, e, label, score, "propagation", explanation="coordinated")


def _models_lower_case(text: str, names: dict, decisions: list, score: float) -> list:
    """A name this transcript gives capitalised ("Malcolm McDevitt"), written once in lower
    case ("malcolm and me never got along"), where every learned model called that very
    word a person and only the cleaning's lower-case rule dropped it: a transcriber's slip,
    proposed here (an everyday word the models misread, "I hope", is never all three's
    person). The word is found, not copied: no other lower-case use is proposed."""
    models: dict[tuple[int, int], set[str]] = {}
    for d in decisions:
        if d.outcome == "span" or d.label != "PERSON" or d.rule != "lower-case":
            continue
        model = learned_model(d.detector, d.reason)
        if model:
            models.setdefault((d.start, d.end), set()).add(model)
    return [
        Detection(s, e, "PERSON", score, "propagation", explanation=LOWER_AGREED)
        for (s, e), who in sorted(models.items())
        if who >= LEARNED_MODELS and text[s:e].isalpha() and text[s:e] in names
    ]
