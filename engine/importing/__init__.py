"""Django-free transcript import: PDF (pdfplumber) and text → canonical text,
cover metadata and utterances. See docs/importing.md."""

from engine.importing.errors import ImportRejected
from engine.importing.files import parse_file, parse_pdf
from engine.importing.parse import ParsedTranscript, ParsedUtterance
from engine.importing.textfile import parse_text

__all__ = [
    "ImportRejected",
    "ParsedTranscript",
    "ParsedUtterance",
    "parse",
    "parse_file",
    "parse_pdf",
    "parse_text",
]


def parse(source, *, name: str | None = None) -> ParsedTranscript:
    """Parse a path (str/Path) or bytes. ``parse(render_pdf(h, out))`` round-trips."""
    from pathlib import Path

    if isinstance(source, bytes | bytearray):
        return parse_file(name or "upload", bytes(source))
    path = Path(source)
    return parse_file(name or path.name, path.read_bytes())
