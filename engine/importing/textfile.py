"""A plain-text transcript → ``ParsedTranscript`` (``parse_text``): the text decoded and
cleaned, a caption file or a timestamped speech-to-text transcript read as one, otherwise
its pages found (``textpages``) and parsed like a PDF's (``parse.parse_pages``). Django-free.

Its own module because the document formats (``documents``: ``.docx``, ``.rtf``, markup)
read through it, and the file reader (``files``) reads them: ``parse`` imports none of
the formats that use it.
"""

from __future__ import annotations

import re

from engine.importing.captions import looks_like_captions, parse_captions
from engine.importing.filing import number_as_filed
from engine.importing.markup import looks_like_markup, markup_text
from engine.importing.parse import ParsedTranscript, parse_pages
from engine.importing.sources import decode_text
from engine.importing.speech import parse_speech, speech_turns
from engine.importing.text import clean_text
from engine.importing.textpages import split_text_pages

_SOFT_BREAK = re.compile(r"[\ufffe\u00ad](?=\d{1,2}\s)")


def parse_text(data: bytes | str, *, standalone: frozenset[str] = frozenset()) -> ParsedTranscript:
    """Parse a plain-text transcript: ``SPEAKER: text`` lines; pages split by form feeds
    or found from their marks (``textpages``); text extracted from a PDF keeps its
    cover, index, headers and line numbers: they are handled as in a PDF. A caption file
    or a timestamped speech-to-text transcript saved as text is read as one
    (``captions``, ``speech``), and so is a Markdown or reStructuredText export
    (``markup.looks_like_markup``). ``standalone``: heading lines of a markup file."""
    if isinstance(data, bytes):
        text, encoding = decode_text(data)
    else:
        text, encoding = data.replace("\r\n", "\n").replace("\r", "\n"), "str"
    # Control characters anywhere removed; a megabyte line split at its speaker tags or
    # refused with a sentence (engine.importing.text).
    text = clean_text(text)
    # Some extractors (pdfium) turn a hyphen at a line end into a soft-hyphen
    # marker and glue the next line (with its margin number) on: "Q-U\ufffe9 I-L-L".
    text = _SOFT_BREAK.sub("-\n", text).replace("\ufffe", "-")
    if kind := looks_like_captions(text):
        return parse_captions(text, kind)
    if (segments := speech_turns(text)) is not None:
        return parse_speech(segments, extra={"encoding": encoding})
    markup = None if standalone else looks_like_markup(text)
    if markup:  # a Markdown or reStructuredText export saved as .txt
        found_markup = markup_text(text, markup)
        text, standalone = found_markup.text, frozenset(found_markup.standalone)
    found = split_text_pages(text)
    extra = {
        "encoding": encoding,
        "filing_stamps_removed": found.filing_stamps,
        "number_blocks_removed": found.number_blocks,
        "page_numbers_removed": found.page_numbers,
    }
    parsed = parse_pages(
        found.pages,
        source_format="txt",
        layout_extra=extra,
        raw_text=text,
        standalone=frozenset(standalone),
    )
    if markup:
        parsed.layout["document_format"] = markup
    return number_as_filed(parsed, found.numbers)
