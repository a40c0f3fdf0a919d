"""Question-and-answer testimony: who asks and who answers (see docs/importing.md).

Court examinations, grand jury volumes and depositions print testimony as question and
answer lines: ``Q.``/``A.``, ``Q:``/``A:``, or bare ``Q text`` / ``A text``. Each question
and each answer becomes one utterance:

- the question's speaker is the examiner named by the last ``BY MS. NAME:`` line (or an
  ``EXAMINATION BY MS. NAME`` heading, or ``Q. (BY MS. NAME)``), else ``Q`` — a new
  examination heading or a new witness forgets the examiner, so a name is never guessed;
- the answer's speaker is the witness named by the swearing-in line (``JANE ROE, having
  been first duly sworn, testified as follows:``, ``NAME, PLAINTIFF'S WITNESS, SWORN``,
  ``JANE ROE,`` alone with the swearing-in on the next line), else ``THE WITNESS``;
  ``(Witness sworn.)`` starts an unnamed witness and ``(Witness excused.)`` ends one;
- a juror's question keeps its own tag (``A JUROR:``, ``JUROR:``, ``GRAND JUROR:``): it is a
  speaker turn, not an answer;
- a question written without its ``Q`` after a finished answer (a line, or lines, ending
  in ``?`` right before an ``A`` line) is a question of its own (``unmarked_questions``):
  the juror's when a juror asked the question before it (``A JUROR: ...``) or a ``BY A
  JUROR:`` line made a juror the examiner, else ``Q``, never a piece of the answer.

Bare ``Q``/``A`` lines are read only in a document in question-and-answer form
(``qa_mode``): its bare ``Q`` and ``A`` lines alternate, or it has examination marks
(``BY`` lines, ``EXAMINATION`` headings, a swearing-in line) and at least one question
followed by an answer. Elsewhere a line starting with the word "A" ("A man came in") is
prose. Inside testimony, a bare ``A`` line right after an answer continues it (two answers
never follow each other), a bare ``Q`` line after a question that does not end a sentence
continues it, and an ``A`` line (bare or ``A.``) after a question or a remark that stops
mid-sentence (a letter, digit or comma: "... marked as Exhibit" / "A for identification")
continues it. Django-free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.importing.speakers import is_speaker_line

_NAME = r"[A-Z][A-Z'’\-]+(?:\s+[A-Z][A-Z'’\-]+){0,3}"
# Who asks: "MR. NAME", "A JUROR", "A GRAND JUROR", "JUROR NO. 7", "THE FOREPERSON", "THE COURT".
_EXAMINER = (
    rf"(?:(?:MR|MS|MRS|MISS|DR)\.?\s+{_NAME}"
    r"|(?:A\s+|THE\s+)?(?:GRAND\s+)?JUROR(?:\s+(?:NO\.?|NUMBER)\s*\d+|\s+\d+)?"
    r"|THE\s+(?:DEPUTY\s+)?FOREPERSON|THE\s+FOREMAN|THE\s+COURT)"
)
_BY = re.compile(rf"^BY\s+({_EXAMINER})\s*:?$")
_EXAM_HEADING = re.compile(
    r"^(?:(?:FURTHER|CONTINUED|RECALLED)\s+)?(?:(?:RE-?)?(?:DIRECT|CROSS)[- ]?)?EXAMINATION\b"
    rf"(?:.*?\bBY\s+({_EXAMINER}))?[^a-z]*$|^VOIR DIRE\b[^a-z]*$"
)
_QA_MARKED = re.compile(r"^([QA])[.:]\s+(.*)$")
_QA_BARE = re.compile(r"^([QA])\s+(\S.*)$")
_BY_IN_QUESTION = re.compile(rf"^\(\s*BY\s+({_EXAMINER})\s*:?\s*\)", re.I)
_SUFFIX = r"(?:,\s+(?:JR|SR|II|III|IV|M\.D|PH\.D|Jr|Sr|Ph\.D)\.?)?"
_SWORN = re.compile(
    r"^(?:WHEREUPON,?\s+|Whereupon,?\s+)?"
    rf"(?P<name>[A-Z][A-Z.'’\-]*(?:\s+[A-Z][A-Z.'’\-]*){{1,4}}){_SUFFIX},\s+"
    r"(?:(?:[A-Z'’]+\s+)*WITNESS\b|SWORN\b|AFFIRMED\b|(?:a|the)\s+witness\b|"
    r"called\s+as\s+a\s+witness\b|having\s+been\b|(?:who,?\s+)?(?:having\s+been|being|"
    r"after\s+being|previously|was)\s+(?:first\s+)?(?:duly\s+)?(?:sworn|affirmed)\b|"
    r"(?:CALLED\s+AS\s+A\s+WITNESS|HAVING\s+BEEN|(?:WHO,?\s+)?(?:BEING|PREVIOUSLY|WAS)\s+"
    r"(?:FIRST\s+)?(?:DULY\s+)?(?:SWORN|AFFIRMED))\b)"
)
_SWORN_MIXED = re.compile(
    r"^(?:Whereupon,?\s+)?(?P<name>[A-Z][a-z'’\-]+(?:\s+[A-Z]\.)?(?:\s+[A-Z][a-z'’\-]+){1,3})"
    rf"{_SUFFIX},\s+"
    r"(?:having been|being|after being|was|called)\b.*\b(?:sworn|affirmed)\b"
)
_UNNAMED_SWORN = re.compile(
    r"^\(?\s*(?:The\s+)?witness(?:\s+was)?\s+(?:duly\s+|first\s+)*(?:sworn|affirmed)\b[^a-z]*?\.?\)?$",
    re.I,
)
# The witness's name alone on a line ("JANE ROE,"), the swearing-in on the next one.
_NAME_ALONE = re.compile(rf"^(?P<name>[A-Z][A-Z.'’\-]*(?:\s+[A-Z][A-Z.'’\-]*){{1,4}}){_SUFFIX},$")
_SWORN_REST = re.compile(
    r"^(?:called\b|having\s+been\b|being\b|after\s+being\b|previously\b|was\s+)"
    r".*\b(?:sworn|affirmed)\b",
    re.I,
)
# The witness leaves: the next answers are not theirs.
_WITNESS_GONE = re.compile(
    r"^\(.*\bwitness\b.*\b(?:excused|withdr[ae]wn?|stepped down|steps down|left)\b.*\)\.?$",
    re.I,
)
_LONGEST = 300  # longer lines are read for Q/A only (the patterns above backtrack)
_MID_SENTENCE = re.compile(r"[A-Za-z0-9,]$")
_SENTENCE_DONE = re.compile(r"[.?!\"'’”)]$")
_JUROR = re.compile(r"\bJUROR\b")
_ENDS_SENTENCE = re.compile(r"[.?!:;\"'’”)\]-]$")


def _examiner(text: str) -> str:
    return " ".join(text.split())


def is_exam_mark(line: str) -> bool:
    """A ``BY`` line, an examination heading or a swearing-in line."""
    return len(line) <= _LONGEST and bool(
        _BY.match(line)
        or _EXAM_HEADING.match(line)
        or _SWORN.match(line)
        or _SWORN_MIXED.match(line)
    )


def is_qa_line(line: str, *, bare: bool = False) -> bool:
    """A question or answer line: ``Q.``/``A.``, ``Q:``/``A:``, and with ``bare`` (a
    document in question-and-answer form) ``Q text`` / ``A text``; never a speaker turn
    ("A JUROR: ...")."""
    if _QA_MARKED.match(line):
        return True
    return bare and bool(_QA_BARE.match(line)) and not is_speaker_line(line)


def qa_mode(lines: list[str]) -> bool:
    """Whether a document writes testimony as bare ``Q``/``A`` lines (see the module)."""
    letters = [
        m.group(1) for line in lines if (m := _QA_BARE.match(line)) and not is_speaker_line(line)
    ]
    pairs = sum(1 for a, b in zip(letters, letters[1:], strict=False) if a == "Q" and b == "A")
    if pairs >= 3:
        return True
    return pairs >= 1 and any(is_exam_mark(line) for line in lines)


def _plain_text(line: str, bare: bool) -> bool:
    """A line that is no question or answer, speaker turn, examination mark or stage
    direction."""
    return not (
        is_qa_line_any(line, bare)
        or is_speaker_line(line)
        or is_exam_mark(line)
        or line.startswith("(")
    )


def is_qa_line_any(line: str, bare: bool) -> bool:
    return bool(_QA_MARKED.match(line)) or (
        bare and bool(_QA_BARE.match(line)) and not is_speaker_line(line)
    )


def unmarked_questions(lines: list[str], *, bare: bool) -> set[int]:
    """Indices of lines that start a question written without its ``Q``: the plain lines
    right before an ``A`` line that end in ``?``, from the first after a finished
    sentence (a question wrapped over lines stays whole)."""
    found: set[int] = set()
    for j, line in enumerate(lines):
        if j < 2 or not is_qa_line_any(line, bare) or not line.startswith("A"):
            continue
        if is_speaker_line(line):
            continue
        k = j - 1
        if not lines[k].rstrip().endswith("?") or not _plain_text(lines[k], bare):
            continue
        start = k
        while (
            start - 1 >= 0
            and _plain_text(lines[start - 1], bare)
            and not _SENTENCE_DONE.search(lines[start - 1])
        ):
            start -= 1
        if start >= 1 and _SENTENCE_DONE.search(lines[start - 1]) and lines[start][:1].isupper():
            found.add(start)
    return found


@dataclass(frozen=True)
class Step:
    """What a line is: ``closed`` (a line of its own), ``open`` (a turn that continuation
    lines join) or ``continue`` (joins the open turn); ``qa`` is "Q", "A" or ""."""

    kind: str
    speaker: str
    text: str
    qa: str = ""


@dataclass
class Testimony:
    """Reads the lines of one document in order; ``read`` answers for testimony lines."""

    lines: list[str]
    mode: bool = False
    testimony: bool = False  # any question and answer lines, bare or marked
    examiner: str = ""
    witness: str = ""
    roles: dict[str, str] = field(default_factory=dict)
    _pending: str = ""  # a name alone on the line before ("JANE ROE,")
    _unmarked: set[int] = field(default_factory=set)  # lines that start unmarked questions
    _at: int = -1  # the index of the line ``read`` is reading
    _juror: str = ""  # the tag of a juror whose question came last ("A JUROR")

    def __post_init__(self) -> None:
        self.mode = qa_mode(self.lines)
        self.testimony = self.mode or any(_QA_MARKED.match(line) for line in self.lines)
        if self.testimony:
            self._unmarked = unmarked_questions(self.lines, bare=self.mode)

    def _follow(self, line: str) -> int:
        """The index of ``line`` (the lines are read in order, each once)."""
        at = self._at + 1
        if at >= len(self.lines) or self.lines[at] != line:
            at = next((i for i in range(at, len(self.lines)) if self.lines[i] == line), -1)
        self._at = at if at >= 0 else self._at
        return at

    def read(self, line: str, open_qa: str | None, tail: str = "") -> Step | None:
        """The step for ``line``, or None when it is no testimony line. ``open_qa``: the
        open turn's ``qa`` ("Q", "A", "") or None when no turn is open; ``tail`` its end."""
        at = self._follow(line)
        if at in self._unmarked and open_qa == "A" and _SENTENCE_DONE.search(tail):
            asker = self.examiner if _JUROR.search(self.examiner) else self._juror or "Q"
            return Step("open", asker, line, "Q")
        if is_speaker_line(line) and not _BY.match(line):
            tag = line.split(":", 1)[0].strip()
            self._juror = tag if _JUROR.search(tag) else ""
        if m := _BY.match(line):
            self.examiner = _examiner(m.group(1))
            return Step("closed", "", line)
        if len(line) <= _LONGEST and (m := _EXAM_HEADING.match(line)):
            self.examiner = _examiner(m.group(1)) if m.group(1) else ""
            return Step("closed", "", line)
        if len(line) > _LONGEST:  # headings and swearing-in lines are short
            self._pending = ""
            return self._qa(line, open_qa, tail)
        pending, self._pending = self._pending, ""
        sworn = _SWORN.match(line) or _SWORN_MIXED.match(line)
        if sworn or (pending and _SWORN_REST.match(line)):
            self.witness = " ".join((sworn.group("name") if sworn else pending).upper().split())
            self.roles[self.witness] = "Witness"
            self.examiner = ""
            # Open: a swearing-in sentence printed over two lines stays one line.
            return Step("continue" if pending else "open", "", line)
        if self.testimony and (m := _NAME_ALONE.match(line)):
            self._pending = m.group("name")
            return Step("open", "", line)
        if _UNNAMED_SWORN.match(line) or _WITNESS_GONE.match(line):
            self.witness = self.examiner = ""
            return Step("closed", "", line)
        return self._qa(line, open_qa, tail)

    def _qa(self, line: str, open_qa: str | None, tail: str) -> Step | None:
        marked = _QA_MARKED.match(line)
        bare = None if marked or not self.mode else _QA_BARE.match(line)
        if bare and is_speaker_line(line):  # "A JUROR: ...": a turn of its own
            return None
        m = marked or bare
        if not m:
            return None
        letter, text = m.group(1), m.group(2)
        if bare and open_qa == letter:
            if letter == "A" or not _ENDS_SENTENCE.search(tail):
                return Step("continue", "", line)
        if letter == "A" and open_qa in ("Q", "") and _MID_SENTENCE.search(tail):
            # "... marked as Exhibit" + "A for identification.": the sentence goes on.
            return Step("continue", "", line)
        if letter == "Q":
            self._juror = ""
            if by := _BY_IN_QUESTION.match(text):
                self.examiner = _examiner(by.group(1)).upper()
            return Step("open", self.examiner or "Q", text, "Q")
        return Step("open", self.witness or "THE WITNESS", text, "A")
