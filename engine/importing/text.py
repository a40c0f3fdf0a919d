"""Bytes of a text file → clean text for the parser. Django-free.

* The encoding comes from a byte-order mark (UTF-8, UTF-16 and UTF-32, either byte
  order), else UTF-8, else Windows-1252 (the encodings transcripts are found in).
* Control characters (NUL, ESC, BEL, DEL, C1 codes …) are removed wherever they are in
  the file; tab, line ends and form feeds (page breaks) stay. A file in which they are
  frequent is binary data and refused with a sentence.
* A line longer than :data:`MAX_LINE_CHARS` (a whole transcript on one line) is split
  before each speaker tag (``PRESIDING COMMISSIONER ALDEN:``); a line that is still that
  long is refused with a sentence, never rendered as one line of megabytes.
"""

from __future__ import annotations

import codecs
import re

from engine.importing.errors import EmptyFile, NotSupported

# (BOM, codec): the longest first (the UTF-32 LE mark starts with the UTF-16 LE one).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# C0 controls but tab, line feed, form feed and carriage return; DEL; C1 controls.
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
# A transcript's longest utterance is a few thousand characters.
MAX_LINE_CHARS = 50_000
# Before a speaker tag inside a long line: "... record. INCARCERATED PERSON QUILL: ..."
_TAG_INSIDE = re.compile(r"(?<=[.?!\"”)\]])[ \t]+(?=[A-Z][A-Z.'’ -]{1,60}[A-Z.]: )")
BINARY = "This is neither a PDF nor a text file (it contains binary data)."


def _decode(data: bytes) -> str:
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(codec)
            except UnicodeDecodeError as exc:
                raise NotSupported(
                    f"The file starts with a {codec.upper()} byte-order mark but is not "
                    f"valid {codec.upper()} text; save it again as UTF-8 and import it."
                ) from exc
    if b"\x00" in data[:4096]:  # UTF-16 without a mark, or binary: not a transcript
        raise NotSupported(BINARY)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def split_long_lines(text: str, *, limit: int = MAX_LINE_CHARS) -> str:
    """Split lines longer than ``limit`` before each speaker tag; refuse what stays longer."""
    if len(text) <= limit or not any(len(line) > limit for line in text.split("\n")):
        return text
    out = []
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > limit:
            line = _TAG_INSIDE.sub("\n", line)
            longest = max(len(part) for part in line.split("\n"))
            if longest > limit:
                raise NotSupported(
                    f"Line {number} is {longest:,} characters long, too long for one speaker "
                    f"turn (at most {limit:,}): put each speaker's turn on a line of its own "
                    "(SPEAKER: text) and import the file again."
                )
        out.append(line)
    return "\n".join(out)


def decode_text(data: bytes) -> str:
    """Clean text of a text file's bytes (see the module docstring); raises
    :class:`NotSupported` or :class:`EmptyFile` with a sentence."""
    if not data or not data.strip():
        raise EmptyFile("The file is empty.")
    text = _decode(data)
    controls = len(_CONTROLS.findall(text[:4096]))
    if controls > 8:
        raise NotSupported(BINARY)
    text = _CONTROLS.sub("", text)
    if not text.strip():
        raise EmptyFile("The file is empty.")
    return split_long_lines(text)
