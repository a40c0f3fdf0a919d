"""Word (``.docx``), RTF and Markdown transcripts → plain text for the text parser.
Django-free.

Court reporters also deliver ``.docx`` and ``.rtf``; some transcripts are saved as
Markdown. Each reader returns the document's text with its line breaks, and a form feed
where the document breaks the page, so ``textfile.parse_text`` does the same layout
analysis as for a ``.txt`` file (speaker tags, pages, running headers, line numbers):

* ``.docx``: the body's paragraphs and tables in document order (a table row as its cells
  joined by tabs); a page break (``<w:br w:type="page"/>`` or a paragraph's *page break
  before*) becomes a form feed; headers and footers are left out (page furniture). The
  package is bounded before it is read (how many parts, how large each inflates, stored
  or deflate only: ``archives``) and its main part is parsed as a stream (lxml
  ``iterparse``, each element dropped once read), so a small file that inflates to a
  huge or element-dense XML is refused or read in little memory;
* ``.rtf`` with striprtf: ``\\page`` becomes a form feed;
* ``.md`` and ``.rst``: the markup removed by ``markup`` (speaker names in bold or
  italics become speaker tags, headings lines of their own, directives and embedded HTML
  left out), so speaker tags read as they do in a ``.txt`` file.

A file that cannot be read raises ``NotSupported`` with a sentence.
"""

from __future__ import annotations

import io
import re
import zipfile

from engine.importing.archives import (
    BoundedReader,
    directory_refusal,
    mb,
    methods_refusal,
    read_member,
    sizes_refusal,
)
from engine.importing.errors import ImportRejected, NotSupported

DOCUMENT_SUFFIXES = (".docx", ".rtf", ".md", ".markdown", ".rst")

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


# Bounds of a .docx before and while it is read (docs/importing.md): a part
# is what the package holds (the document's XML, styles, images, ...).
DOCX_MAX_PARTS = 2000
DOCX_MAX_PART_BYTES = 64 * 1024 * 1024  # one part, inflated
DOCX_MAX_BYTES = 256 * 1024 * 1024  # every part together, inflated
_SMALL_PART_BYTES = 2 * 1024 * 1024  # the package's relationships and content types
_WORD = "This Word document"
_AGAIN = "save it again as .docx or export it as PDF or text."
_MAIN_TYPES = (
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    "application/vnd.ms-word.document.macroEnabled.main+xml",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
)


def docx_text(data: bytes) -> str:
    """The text of a Word document (see the module docstring).

    The package is checked before anything is inflated (``archives``: the parts' count
    and declared sizes, stored or deflate only), then only its main part is read, counted
    while it inflates and parsed as a stream (``_body_text``): memory holds the text, not
    the XML or its tree, however many elements the part has."""
    # embedded packages (a spreadsheet, stored) list their own entries: room for them
    if refusal := directory_refusal(data, what=_WORD, max_entries=20 * DOCX_MAX_PARTS):
        raise refusal
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise NotSupported(f"{_WORD} cannot be read ({type(exc).__name__}); {_AGAIN}") from exc
    refusal = methods_refusal(infos, what=_WORD) or sizes_refusal(
        infos,
        what=_WORD,
        max_member=DOCX_MAX_PART_BYTES,
        max_total=DOCX_MAX_BYTES,
        max_members=DOCX_MAX_PARTS,
    )
    if refusal is not None:
        raise refusal
    main = _main_part(archive)
    try:
        with BoundedReader(
            archive,
            main,
            limit=DOCX_MAX_PART_BYTES,
            refusal=(
                f"{_WORD} was refused: its text part expands beyond {mb(DOCX_MAX_PART_BYTES)}, "
                "the most accepted for one part."
            ),
        ) as reader:
            return _body_text(reader)
    except ImportRejected:
        raise
    except Exception as exc:  # zipfile.BadZipFile (a wrong checksum), lxml errors
        raise NotSupported(f"{_WORD} is damaged ({type(exc).__name__}); {_AGAIN}") from exc


def _small_xml(archive: zipfile.ZipFile, name: str):
    """A small part (relationships, content types) as an element tree, or None."""
    from lxml import etree

    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    data = read_member(
        archive,
        info,
        limit=_SMALL_PART_BYTES,
        what=_WORD,
        refusal=f"{_WORD} was refused: its package index is implausibly large.",
    )
    try:
        return etree.fromstring(data, parser=_parser())
    except etree.XMLSyntaxError as exc:
        raise NotSupported(f"{_WORD} is damaged ({type(exc).__name__}); {_AGAIN}") from exc


def _parser():
    from lxml import etree

    # no entities, no DTD, no network, libxml2's default limits (depth, text node size)
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def _main_part(archive: zipfile.ZipFile) -> zipfile.ZipInfo:
    """The package's main part (``word/document.xml`` as Word names it), through the
    package relationships; ``NotSupported`` unless it is a Word document."""
    rels = _small_xml(archive, "_rels/.rels")
    target = None
    for rel in rels.iter(f"{_REL}Relationship") if rels is not None else ():
        if (rel.get("Type") or "").endswith("/officeDocument"):
            target = (rel.get("Target") or "").lstrip("/")
            break
    if not target:
        raise NotSupported(f"{_WORD} cannot be read (it has no main document); {_AGAIN}")
    kind = ""
    types = _small_xml(archive, "[Content_Types].xml")
    for node in types.iter() if types is not None else ():
        if node.tag == f"{_CT}Override" and (node.get("PartName") or "").lstrip("/") == target:
            kind = node.get("ContentType") or ""
            break
    if kind not in _MAIN_TYPES:
        raise NotSupported(
            f"This is not a Word document (its content type is {kind[:120] or 'missing'}); {_AGAIN}"
        )
    try:
        return archive.getinfo(target)
    except KeyError as exc:
        raise NotSupported(
            f"{_WORD} cannot be read (its main document is missing); {_AGAIN}"
        ) from exc


_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_BODY, _P, _TBL, _TR, _TC = (f"{_W}{t}" for t in ("body", "p", "tbl", "tr", "tc"))
_T, _TAB, _BR, _CR, _PPR = (f"{_W}{t}" for t in ("t", "tab", "br", "cr", "pPr"))
_PAGE_BREAK_BEFORE, _TYPE = f"{_W}pageBreakBefore", f"{_W}type"


def _body_text(stream) -> str:
    """The body's paragraphs and tables in document order, parsed as a stream.

    A paragraph is its runs' text, ``w:tab`` as a tab, ``w:br``/``w:cr`` as a line break
    (a page break as a form feed), *page break before* as a leading form feed; a table
    row is one line of its cells (a cell: its paragraphs joined by spaces; a table
    nested in a cell adds its text to that cell). Other body children (section
    properties, content controls) are left out. The parser builds no tree (a parser
    target, ``_BodyText``), so memory holds the text, never the XML's elements."""
    from lxml import etree

    target = _BodyText()
    parser = etree.XMLParser(
        target=target, resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
    )
    while chunk := stream.read(1 << 20):
        parser.feed(chunk)
    parser.close()
    return "\n".join(target.lines)


class _BodyText:
    """lxml parser target for ``_body_text``: sees the elements as they open and close,
    keeps the text of what it reads (depths: how many elements are open)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.stack: list[str] = []  # the open elements' tags (libxml2 caps the depth)
        self.body: int | None = None  # the depth of w:body, of the current body block, ...
        self.block: int | None = None
        self.para: int | None = None
        self.row_depth: int | None = None
        self.in_text = False
        self.pieces: list[str] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    def start(self, tag, attrib, nsmap=None) -> None:
        depth = len(self.stack)
        self.stack.append(tag)
        if self.body is None:
            if tag == _BODY:
                self.body = depth
            return
        if depth == self.body + 1:
            self.block = depth if tag in (_P, _TBL) else None
            self.row_depth = None
        if self.block is None:
            return
        para = self.para
        if tag == _P and para is None:
            self.para, self.pieces = depth, []
        elif para is None:
            if tag == _TR and self.row_depth in (None, depth):
                self.row_depth, self.row = depth, []
            elif tag == _TC and self.row_depth is not None and depth == self.row_depth + 1:
                self.cell = []
        elif _PPR in self.stack[para + 1 : -1]:  # paragraph properties (tab stops, ...)
            if tag == _PAGE_BREAK_BEFORE and depth == para + 2:
                self.pieces.insert(0, "\f")
        elif tag == _T:
            self.in_text = True
        elif tag == _TAB:
            self.pieces.append("\t")
        elif tag in (_BR, _CR):
            self.pieces.append("\f" if attrib.get(_TYPE) == "page" else "\n")

    def data(self, text: str) -> None:
        if self.in_text:
            self.pieces.append(text)

    def end(self, tag) -> None:
        self.stack.pop()
        depth = len(self.stack)
        self.in_text = False
        if self.block is None:
            return
        if tag == _P and depth == self.para:
            text, self.para = "".join(self.pieces), None
            if depth == self.block:
                self.lines.append(text)
            elif self.cell is not None:
                self.cell.append(text)
        elif tag == _TC and self.row is not None and self.cell is not None:
            if depth == self.row_depth + 1:
                self.row.append(" ".join(self.cell).strip())
                self.cell = None
        elif tag == _TR and self.row is not None and depth == self.row_depth:
            self.lines.append("\t".join(self.row))
            self.row = None
        if depth == self.block:
            self.block = None

    def close(self) -> None:
        return None


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


def markdown_text(text: str) -> str:
    """A Markdown transcript as plain text (``markup.markup_text``)."""
    from engine.importing.markup import markup_text

    return markup_text(text, "md").text


def parse_document(name: str, data: bytes):
    """Parse a ``.docx``, ``.rtf``, ``.md`` or ``.rst`` transcript (by its name's suffix) with the
    text parser's layout analysis. The transcript's ``source_format`` stays ``txt`` (text
    is what was parsed); ``layout["document_format"]`` says which document it was."""
    from engine.importing.markup import markup_text
    from engine.importing.sources import decode_text
    from engine.importing.textfile import parse_text

    lower = name.lower()
    standalone: set[str] = set()
    dropped = 0
    if lower.endswith(".docx"):
        kind, text = "docx", docx_text(data)
    elif lower.endswith(".rtf"):
        kind, text = "rtf", rtf_text(data)
    else:
        kind = "rst" if lower.endswith(".rst") else "md"
        markup = markup_text(decode_text(data)[0], kind)
        text, standalone, dropped = markup.text, markup.standalone, markup.dropped
    if not text.strip():
        from engine.importing.errors import EmptyFile

        raise EmptyFile("The document holds no text.")
    parsed = parse_text(text, standalone=frozenset(standalone))
    parsed.layout["document_format"] = kind
    if dropped:
        parsed.layout["markup_blocks_left_out"] = dropped
        parsed.notices.append(
            f"{dropped} block(s) of embedded HTML, images or code were left out of the text."
        )
    return parsed
