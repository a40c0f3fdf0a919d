"""Words a statistical model calls a person that are no name where they stand.
Django-free.

A learned NER model reads a capitalised word as a name more often than English does: the
first word of a sentence or of a transcript line (``Traffic was bad``, ``Correct.``,
``When I got there``, ``(Laughter.)``), a single letter (``B``), an acronym's plural
(``MRIs``, ``CSOs``), a product or a vehicle after a determiner (``the Tahoe``, ``my
Tahoe``). Each rule here is a fact about English or about how transcripts are written,
never a list of words from one transcript:

* ``single-letter`` — one letter alone is no name (initials live inside a longer name);
* ``acronym-plural`` — capitals and a lower-case ``s`` (``MRIs``, ``DUIs``) are an
  acronym's plural;
* ``determiner-before`` — a person's name takes no article or possessive determiner
  (``the Tahoe``, ``a Camry``, ``my Chevy``): a role between them makes the name
  (``the victim Tembley``) and is another rule's business; only an English word by
  frequency, in no name gazetteer: a name used as a modifier stays (``the Allen case``,
  ``the Wagnor family``);
* ``sentence-start-word`` — an ordinary English word (``ordinary.is_ordinary``: by
  frequency, ``when``, ``here``, ``traffic``, ``correct``) capitalised only because it
  opens a sentence, a line, a question or an answer — *unless the transcript says it is a
  name*: the same word capitalised in mid-sentence elsewhere (``told Hope``; after a
  comma only inside a list, ``from Mares, Watts, Adegoke``: a comma also opens quoted
  speech, ``I said, When``), after an
  honorific (``Ms. Hope``), in a speaker tag or spelled out (``engine.detectors.given``),
  or a surname follows it (``Amber Lee and a friend``).

The rules apply to a statistical model's single-word PERSON find only (spaCy, directly or
through Presidio; the token classifier; a learned member), never to a hand-written rule's.
"""

from __future__ import annotations

import re

from engine.detectors.ordinary import in_name_gazetteer, is_name_word, is_ordinary

_ACRONYM_PLURAL = re.compile(r"[A-Z]{2,}s")
_DETERMINER_BEFORE = re.compile(
    r"(?<![\w'’])(?i:the|a|an|my|your|his|her|our|their|its|this|that|these|those)[ \t]+$"
)
# What may stand between a line's start and the first word of a sentence: spaces, a
# transcript's line number or timestamp, a Q/A marker, a speaker tag, quotes, brackets.
_LINE_LEAD = re.compile(r"^[\s\d:.]*(?:(?:Q|A)\b\.?)?[\s\"“‘'(\[]*$")
_ABBREVIATION_END = re.compile(
    r"(?<![\w.])(?:Mr|Mrs|Ms|Mx|Dr|St|Jr|Sr|Hon|Gen|Sen|Rep|Gov|Lt|Sgt|Capt|Det|Rev|Prof|"
    r"No|Nos|Co|Inc|Corp|Ltd|vs|v|[A-Z])\.$",
    re.IGNORECASE,
)
_NEXT_WORD = re.compile(r"[ \t]+([A-Z][a-z'’]+)\b")
_MID_SENTENCE_CAPITAL = re.compile(
    r"(?<=[a-z] )[A-Z][a-z'’]+|(?<=[a-z], )[A-Z][a-z'’]+(?=,|[ ](?:and|or)\b)"
)

_EVIDENCE: list = []  # [(text, words the transcript itself makes names)]


def sentence_start(text: str, start: int) -> bool:
    """Whether the word at ``start`` opens a sentence, a line, a question or an answer."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    if _LINE_LEAD.match(before):
        return True
    stripped = before.rstrip(" \t\"“‘'([")
    if not stripped:
        return True
    if stripped.endswith(":"):
        return True  # after a speaker tag ("MR. LONG:  Correct.")
    if stripped.endswith((".", "?", "!", "--", "—", ";")):
        return not _ABBREVIATION_END.search(stripped)  # "Mr. Yu" continues a sentence
    return False


def _named_here(text: str) -> frozenset[str]:
    """Words this transcript itself makes names: capitalised in mid-sentence (after a
    lower-case word or a comma), after an honorific, in a speaker tag or spelled out."""
    if _EVIDENCE and _EVIDENCE[0][0] is text:
        return _EVIDENCE[0][1]
    from engine.detectors.given import given_names

    words = {m.group(0).lower() for m in _MID_SENTENCE_CAPITAL.finditer(text)}
    words |= {w.lower() for w in given_names(text, {})}
    result = frozenset(words)
    _EVIDENCE[:] = [(text, result)]
    return result


def person_shape_rule(text: str, start: int, end: int) -> str | None:
    """The rule that says a statistical model's one-word PERSON find at ``[start, end)``
    is no name, or None."""
    value = text[start:end]
    if not value or any(c.isspace() for c in value):
        return None
    if len(value) == 1:
        return "single-letter"
    if _ACRONYM_PLURAL.fullmatch(value):
        return "acronym-plural"
    before = text[max(0, start - 12) : start]
    if _DETERMINER_BEFORE.search(before) and is_ordinary(value) and not in_name_gazetteer(value):
        # "the Tahoe": an English word; "the Allen case", "the Wagnor family" stay names
        return "determiner-before"
    word = re.sub(r"['’]s?$", "", value)
    if not word[:1].isupper() or not is_ordinary(word):
        return None
    if not sentence_start(text, start):
        return None
    if word.lower() in _named_here(text):
        return None  # "Hope said" where "told Hope" or "Ms. Hope" makes it a name
    after = _NEXT_WORD.match(text, end)
    if after:
        following = after.group(1)
        if (
            not is_ordinary(following)
            or is_name_word(following)
            or (in_name_gazetteer(following) and in_name_gazetteer(word))
        ):
            return None  # "Amber Lee", "Angel Noble and a friend": a name before a surname
    return "sentence-start-word"
