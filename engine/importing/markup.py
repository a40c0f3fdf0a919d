"""reStructuredText (``.rst``) and Markdown (``.md``) transcripts → plain text for the
text parser. Django-free.

Hearings published on the web are exported as markup: speaker names in bold or italics
(``**Mr Pemberton**:``, ``**Mr Pemberton:**``, ``*MS. LEE*:``, ``_MS. LEE_:``), headings
underlined (``===``, ``---``) or marked (``#``), directives (``.. rst-class::``), comments,
embedded HTML. ``markup_text`` gives the text as a ``.txt`` transcript would hold it:

- a speaker name in emphasis becomes a speaker tag in capitals (``MR PEMBERTON: ...``);
- headings (``Hearing Day 12`` over ``======``, ``## Afternoon``) and field lists
  (``:Date: 14 October 2003`` → ``Date: 14 October 2003``) are lines of their own
  (``Markup.standalone``);
- directives, comments, substitution definitions and footnotes go with their indented
  blocks; raw HTML, images, figures and code blocks (``.. raw:: html``, ``<iframe>``) are
  left out and counted (``Markup.dropped``); the content of text directives (``note``,
  ``epigraph``, ``container``, ...) stays;
- adornment lines, horizontal rules, ``<!-- comments -->``, list and block-quote marks
  and inline markup (emphasis, literals, roles, links: their text stays, the address
  goes) are removed;
- where turns are separated by blank lines (always in reStructuredText), a paragraph's
  wrapped lines are one line; a file with a turn on each line (a ``.txt`` export saved as
  ``.md``) is read line by line, as before.

The text parser then reads speaker turns, pages (form feeds), stage directions as for a
``.txt`` file, so a paragraph without a speaker name goes on with the turn before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.importing.layout import collapse

_NAME = r"[A-Z][\w.'’\- ]{0,60}?[\w.]"
_SPEAKER = re.compile(
    rf"^(?:[-*+]\s+)?(?P<o>\*\*|__|\*|_)(?P<name>{_NAME})(?P<c1>:?)(?P=o)(?P<c2>[ \t]*:?)[ \t]*"
)
_DIRECTIVE = re.compile(r"^\.\.\s+(?:\|[^|]+\|\s+)?([\w:-]+)::(?:\s+(.*))?$")
_EXPLICIT = re.compile(r"^\.\.(?:\s|$)")
_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+_:.])\1{2,}\s*$")
_MD_HEADING = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_FIELD = re.compile(r"^:([A-Za-z][\w \-]{0,40}):[ \t]+(\S.*)$")
_OPTION = re.compile(r"^[ \t]+:[\w -]+:(?:\s.*)?$")
_HTML_LINE = re.compile(r"^\s*</?[A-Za-z][\w-]*(?:\s[^>]*)?/?>")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TEXT_DIRECTIVES = {
    "note",
    "tip",
    "hint",
    "important",
    "attention",
    "caution",
    "danger",
    "error",
    "warning",
    "admonition",
    "epigraph",
    "highlights",
    "pull-quote",
    "container",
    "topic",
    "sidebar",
    "rubric",
    "line-block",
    "parsed-literal",
    "compound",
    "class",
    "rst-class",
}
_DROPPED_DIRECTIVES = {
    "raw",
    "image",
    "figure",
    "code",
    "code-block",
    "sourcecode",
    "literalinclude",
    "include",
    "math",
    "csv-table",
    "list-table",
    "table",
    "video",
    "youtube",
    "vimeo",
    "iframe",
    "media",
    "audio",
    "embed",
    "html",
}
_INLINE = (
    (re.compile(r"!\[[^\]]*\]\([^)]*\)"), ""),  # Markdown image
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),  # Markdown link: its text
    (re.compile(r"`([^`<]+?)\s*<[^>]+>`__?"), r"\1"),  # rST link with its address
    (re.compile(r"`([^`]+)`__?"), r"\1"),  # rST reference
    (re.compile(r":[\w:-]+:`([^`]+)`"), r"\1"),  # rST role
    (re.compile(r"\s?\[(?:#\w*|\*|\d+)\]_"), ""),  # rST footnote reference
    (re.compile(r"``(.+?)``"), r"\1"),
    (re.compile(r"`([^`]+)`"), r"\1"),
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),
    (re.compile(r"(?<![\w*\\])\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<![\w\\])_(?=[^\s_])(.+?)(?<=[^\s_\\])_(?!\w)"), r"\1"),
    (re.compile(r"(?<=\w)__?(?=[\s.,;:!?)]|$)"), ""),  # rST reference name_
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!|])"), r"\1"),  # escapes
)


@dataclass
class Markup:
    text: str
    standalone: set[str] = field(default_factory=set)  # headings, field lines
    dropped: int = 0  # blocks left out (raw HTML, images, code)
    kind: str = "md"


def inline(text: str) -> str:
    for pattern, repl in _INLINE:
        text = pattern.sub(repl, text)
    return text


def _speaker(line: str) -> str:
    """``**Mr Pemberton**: text`` → ``MR PEMBERTON: text``; other lines unchanged."""
    m = _SPEAKER.match(line)
    if not m or not (m.group("c1") or ":" in m.group("c2")):
        return line
    name = collapse(m.group("name")).upper()
    return f"{name}: {line[m.end() :]}".rstrip()


def _indented(line: str) -> bool:
    return bool(line) and line[0] in " \t"


def _blocks(lines: list[str], kind: str, out: Markup) -> list[tuple[str, bool]]:
    """(line, heading) after block-level markup; "" for a blank line."""
    result: list[tuple[str, bool]] = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        stripped = line.strip()
        if kind == "rst" and _EXPLICIT.match(line):
            m = _DIRECTIVE.match(line)
            name = m.group(1).lower() if m else ""
            keep = name in _TEXT_DIRECTIVES
            if keep and m.group(2) and name not in ("class", "rst-class", "container"):
                result += [("", False), (m.group(2).strip(), True), ("", False)]
            i += 1
            dropped = False
            while i < len(lines) and (not lines[i].strip() or _indented(lines[i])):
                body = lines[i]
                if keep and body.strip() and not _OPTION.match(body):
                    result.append((body.strip(), False))
                elif not keep and body.strip() and not _OPTION.match(body):
                    dropped = True
                elif not body.strip():
                    result.append(("", False))
                i += 1
            out.dropped += dropped and name in _DROPPED_DIRECTIVES
            continue
        if _ADORNMENT.match(stripped) and (kind == "rst" or stripped[0] in "=-*_"):
            previous = result[-1][0] if result else ""
            if (
                previous
                and not _ADORNMENT.match(previous)
                and (kind == "rst" or stripped[0] in "=-")
            ):
                result[-1] = (previous, True)  # the line above is a heading
            i += 1
            continue
        if kind == "md" and (m := _MD_HEADING.match(line)):
            result.append((m.group(2), True))
            i += 1
            continue
        if kind == "md" and _HTML_LINE.match(line) and (not result or not result[-1][0]):
            # an HTML block starts after a blank line (CommonMark); inside a paragraph
            # a tag is text
            out.dropped += 1
            i += 1
            continue
        if kind == "rst" and (m := _FIELD.match(line)):
            result.append((f"{m.group(1)}: {m.group(2)}", True))
            i += 1
            continue
        if kind == "rst" and stripped.startswith("| "):
            stripped = stripped[2:]
        while stripped.startswith(">"):
            stripped = stripped[1:].lstrip()
        result.append((stripped, False))
        i += 1
    return result


def markup_text(text: str, kind: str = "md") -> Markup:
    """Markup → text for ``textfile.parse_text`` (see the module docstring)."""
    out = Markup("", kind=kind)
    text = _HTML_COMMENT.sub("", text)
    pages = []
    for page in text.split("\f"):
        lines = _blocks(page.split("\n"), kind, out)
        blank = sum(1 for line, _ in lines if not line)
        paragraphs = kind == "rst" or blank * 4 >= len(lines)
        entries: list[list] = []  # [text, heading]
        open_para = False
        for line, heading in lines:
            if not line:
                open_para = False
            elif heading:
                entries.append([line, True])
                open_para = False
            elif paragraphs and open_para and not _starts_turn(line):
                entries[-1][0] = f"{entries[-1][0]} {line}"
            else:
                entries.append([line, False])
                open_para = True
        joined: list[str] = []
        for raw, heading in entries:
            line = inline(_speaker(raw))
            if line.endswith("::"):
                line = line[:-2].rstrip() + ("" if line[:-2].endswith(" ") else ":")
            if heading:
                out.standalone.add(collapse(line))
            joined.append(line)
        pages.append("\n".join(joined))
    out.text = "\f".join(pages)
    return out


# a line that starts a speaker turn once the markup is gone (``MR PEMBERTON: ...``)
_SPEAKER_TAG = re.compile(r"^[A-Z][A-Z0-9'’.\- ]{0,60}:\s")


def _starts_turn(line: str) -> bool:
    return _speaker(line) != line or bool(_SPEAKER_TAG.match(line))


_RST_SIGNS = re.compile(r"^\.\.\s+[\w:-]+::|^={3,}\s*$", re.M)
_MD_SIGNS = re.compile(r"^#{1,6}\s", re.M)


def looks_like_markup(text: str) -> str | None:
    """``rst`` or ``md`` when a text file is a markup export (at least three speaker names
    in emphasis among its first 400 lines; reStructuredText by its directives or
    adornment lines), else None: such a file saved as ``.txt`` is read as markup."""
    head = text[:60_000].split("\n")[:400]
    names = sum(1 for line in head if _speaker(line.strip()) != line.strip())
    if names < 3:
        return None
    joined = "\n".join(head)
    return "rst" if _RST_SIGNS.search(joined) and not _MD_SIGNS.search(joined) else "md"
