"""Word (``.docx``), RTF and Markdown transcripts → plain text for the text parser.
Django-free.

Court reporters also deliver ``.docx`` and ``.rtf``; some transcripts are saved as
Markdown. Each reader returns the document's text with its line breaks, and a form feed
where the document breaks the page, so ``parse.parse_text`` does the same layout
analysis as for a ``.txt`` file (speaker tags, pages, running headers, line numbers):

* ``.docx`` with python-docx: the body's paragraphs and tables in document order (a table
  row as its cells joined by tabs); a page break (``<w:br w:type="page"/>`` or a
  paragraph's *page break before*) becomes a form feed; headers and footers are left out
  (page furniture);
* ``.rtf`` with striprtf: ``\\page`` becomes a form feed;
* ``.md``: read as text; emphasis markers around words (``**MR. LONG:**``) and heading
  marks are dropped so speaker tags read as they do in a ``.txt`` file.

A file that cannot be read raises ``NotSupported`` with a sentence.
"""

from __future__ import annotations

import io
import re

from engine.importing.errors import NotSupported

DOCUMENT_SUFFIXES = (".docx", ".rtf", ".md", ".markdown")

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def docx_text(data: bytes) -> str:
    """The text of a Word document (see the module docstring)."""
    try:
        import docx
        from docx.opc.exceptions import PackageNotFoundError
    except ImportError as exc:  # pragma: no cover - pinned in requirements.txt
        raise NotSupported("Word documents cannot be read here (python-docx is missing).") from exc
    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, KeyError, ValueError, OSError) as exc:
        raise NotSupported(
            f"This Word document cannot be read ({type(exc).__name__}); save it again as .docx "
            "or export it as PDF or text."
        ) from exc
    except Exception as exc:  # zipfile.BadZipFile, lxml errors: a damaged file
        raise NotSupported(
            f"This Word document is damaged ({type(exc).__name__}); save it again as .docx "
            "or export it as PDF or text."
        ) from exc
    lines: list[str] = []
    for block in document.element.body.iterchildren():
        if block.tag == f"{_W}p":
            lines.append(_paragraph_text(block))
        elif block.tag == f"{_W}tbl":
            for row in block.iter(f"{_W}tr"):
                cells = [
                    " ".join(_paragraph_text(p) for p in cell.iter(f"{_W}p")).strip()
                    for cell in row.iter(f"{_W}tc")
                ]
                lines.append("\t".join(cells))
    return "\n".join(lines)


def _paragraph_text(paragraph) -> str:
    out: list[str] = []
    props = paragraph.find(f"{_W}pPr")
    if props is not None and props.find(f"{_W}pageBreakBefore") is not None:
        out.append("\f")
    for node in paragraph.iter():
        tag = node.tag
        if tag == f"{_W}t" and node.text:
            out.append(node.text)
        elif tag == f"{_W}tab":
            out.append("\t")
        elif tag in (f"{_W}br", f"{_W}cr"):
            out.append("\f" if node.get(f"{_W}type") == "page" else "\n")
    return "".join(out)


_RTF_PAGE = re.compile(rb"\\page(?![a-z])(?:-?\d+)? ?")


def rtf_text(data: bytes) -> str:
    """The text of an RTF document (see the module docstring)."""
    try:
        from striprtf.striprtf import rtf_to_text
    except ImportError as exc:  # pragma: no cover - pinned in requirements.txt
        raise NotSupported("RTF documents cannot be read here (striprtf is missing).") from exc
    if not data.lstrip().startswith(b"{\\rtf"):
        raise NotSupported("This is not an RTF document (it does not start with {\\rtf).")
    # a page break: a form feed as a Unicode escape, which striprtf keeps as text
    marked = _RTF_PAGE.sub(rb"\\par\\u12?", data)
    try:
        text = rtf_to_text(marked.decode("latin-1"), errors="replace")
    except Exception as exc:  # noqa: BLE001 - a damaged file, whatever the parser raises
        raise NotSupported(f"This RTF document cannot be read ({type(exc).__name__}).") from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")


_MD_HEADING = re.compile(r"(?m)^[ \t]{0,3}#{1,6}[ \t]+")
_MD_EMPHASIS = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")


def markdown_text(text: str) -> str:
    """A Markdown transcript as plain text: heading marks and bold markers dropped."""
    return _MD_EMPHASIS.sub(r"\2", _MD_HEADING.sub("", text))


def parse_document(name: str, data: bytes):
    """Parse a ``.docx``, ``.rtf`` or ``.md`` transcript (by its name's suffix) with the
    text parser's layout analysis. The transcript's ``source_format`` stays ``txt`` (text
    is what was parsed); ``layout["document_format"]`` says which document it was."""
    from engine.importing.parse import parse_text
    from engine.importing.sources import decode_text

    lower = name.lower()
    if lower.endswith(".docx"):
        kind, text = "docx", docx_text(data)
    elif lower.endswith(".rtf"):
        kind, text = "rtf", rtf_text(data)
    else:
        kind, text = "md", markdown_text(decode_text(data)[0])
    if not text.strip():
        from engine.importing.errors import EmptyFile

        raise EmptyFile("The document holds no text.")
    parsed = parse_text(text)
    parsed.layout["document_format"] = kind
    return parsed
