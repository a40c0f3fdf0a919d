"""Markdown, Word and RTF transcripts (kind 9): the same text as a ``.txt`` file
gives the same transcript, through the same layout analysis. The files are generated here
from a synthetic hearing (engine.synthetic)."""

import io
import zipfile

import pytest

from engine.importing.documents import docx_text, markdown_text, rtf_text
from engine.importing.errors import NotSupported
from engine.importing.files import parse_file
from engine.importing.sources import IMPORTABLE, iter_bytes
from engine.synthetic import generate_hearing


@pytest.fixture(scope="module")
def pages():
    """A short generated hearing as two pages of lines (a page break in the middle)."""
    lines = generate_hearing(2201, words=1500).text.split("\n")
    half = len(lines) // 2
    return lines[:half], lines[half:]


def as_txt(pages) -> bytes:
    return "\f".join("\n".join(page) for page in pages).encode()


def as_docx(pages) -> bytes:
    import docx

    document = docx.Document()
    for n, page in enumerate(pages):
        if n:
            document.add_page_break()
        for line in page:
            document.add_paragraph(line)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _rtf_escape(line: str) -> str:
    out = []
    for c in line:
        if c in "\\{}":
            out.append("\\" + c)
        elif ord(c) > 127:
            out.append(f"\\u{ord(c) if ord(c) < 32768 else ord(c) - 65536}?")
        else:
            out.append(c)
    return "".join(out)


def as_rtf(pages) -> bytes:
    body = "\\page\n".join(
        "".join(f"{_rtf_escape(line)}\\par\n" for line in page) for page in pages
    )
    return ("{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Courier;}}\\f0\\fs24\n" + body + "}").encode()


def as_markdown(pages) -> bytes:
    def mark(line: str) -> str:
        tag, sep, rest = line.partition(": ")
        if sep and tag.isupper():
            return f"**{tag}:** {rest}"  # speaker tags in bold, as Markdown exports write them
        return line

    return "\f".join("\n".join(mark(line) for line in page) for page in pages).encode()


def summary(parsed):
    return (
        parsed.text,
        [(u.speaker, u.page) for u in parsed.utterances],
        parsed.page_count,
        parsed.metadata,
    )


@pytest.mark.parametrize(
    "suffix, build",
    [(".md", as_markdown), (".docx", as_docx), (".rtf", as_rtf)],
)
def test_a_document_gives_the_transcript_its_text_file_gives(pages, suffix, build):
    expected = summary(parse_file("hearing.txt", as_txt(pages)))
    parsed = parse_file(f"hearing{suffix}", build(pages))
    assert summary(parsed) == expected
    assert parsed.page_count == 2
    assert parsed.layout["document_format"] == suffix.lstrip(".")


def test_a_word_table_row_is_one_line_of_its_cells():
    import docx

    document = docx.Document()
    document.add_paragraph("APPEARANCES:")
    table = document.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text = "Commissioner"
    table.rows[0].cells[1].text = "Dora Varga"
    out = io.BytesIO()
    document.save(out)
    assert docx_text(out.getvalue()) == "APPEARANCES:\nCommissioner\tDora Varga"


def test_markdown_headings_and_bold_markers_are_dropped():
    assert markdown_text("# Hearing\n**MR. LONG:** Yes, __sir__.") == "Hearing\nMR. LONG: Yes, sir."


@pytest.mark.parametrize(
    "name, data",
    [
        ("hearing.docx", b"PK\x03\x04 not really a zip"),
        ("hearing.docx", b"plain text saved with the wrong name"),
        ("hearing.rtf", b"plain text saved with the wrong name"),
    ],
)
def test_a_damaged_document_is_refused_with_a_sentence(name, data):
    with pytest.raises(NotSupported) as err:
        parse_file(name, data)
    assert str(err.value).endswith(".")


def test_rtf_page_breaks_become_form_feeds():
    data = b"{\\rtf1\\ansi MR. LONG: One.\\par\\page MR. LONG: Two.\\par}"
    assert rtf_text(data) == "MR. LONG: One.\n\n\fMR. LONG: Two.\n"


def test_documents_are_importable_alone_and_inside_a_zip(pages):
    assert {".md", ".docx", ".rtf"} <= set(IMPORTABLE)
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("a.docx", as_docx(pages))
        z.writestr("b.rtf", as_rtf(pages))
        z.writestr("c.md", as_markdown(pages))
    limits = {"max_bytes": 10_000_000, "max_members": 10, "max_total": 50_000_000}
    members = list(iter_bytes("batch.zip", archive.getvalue(), **limits))
    assert [m.error for m in members] == [None, None, None]
    for member in members:
        assert parse_file(member.name, member.data).utterances


def test_a_folder_walk_picks_up_markdown_word_and_rtf_files(pages, tmp_path):
    from engine.importing.sources import iter_paths

    (tmp_path / "a.docx").write_bytes(as_docx(pages))
    (tmp_path / "b.rtf").write_bytes(as_rtf(pages))
    (tmp_path / "c.md").write_bytes(as_markdown(pages))
    (tmp_path / "d.png").write_bytes(b"\x89PNG")
    limits = {"max_bytes": 10_000_000, "max_members": 10, "max_total": 50_000_000}
    found = list(iter_paths([str(tmp_path)], **limits))
    assert [f.name for f in found] == ["a.docx", "b.rtf", "c.md"]
    assert all(f.error is None for f in found)
