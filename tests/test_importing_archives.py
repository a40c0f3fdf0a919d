"""Files small on disk and huge in memory: every part of a ``.docx``
and every member of a ``.zip`` upload is bounded by what it inflates to before it is
parsed (declared sizes) and while it inflates (counted). The hostile files are built here.

Memory is measured, not time: ``tracemalloc`` for what Python holds (the inflated bytes),
a child process's peak resident size for what the XML parser's C library holds."""

import io
import struct
import subprocess
import sys
import textwrap
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from engine.importing.documents import DOCX_MAX_PART_BYTES, docx_text
from engine.importing.errors import ImportRejected
from engine.importing.files import parse_file
from engine.importing.sources import iter_bytes

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
ROOT = Path(__file__).resolve().parents[1]
LIMITS = {"max_bytes": 50 << 20, "max_members": 500, "max_total": 200 << 20}


def word_package(document_xml: bytes, *, extra: dict[str, bytes] | None = None) -> bytes:
    """A real .docx (python-docx's template) whose main part is ``document_xml``."""
    import docx

    document = docx.Document()
    document.add_paragraph("MR. LONG: Yes.")
    template = io.BytesIO()
    document.save(template)
    source = zipfile.ZipFile(template)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "word/document.xml":
                data = document_xml
            package.writestr(info.filename, data)
        for name, data in (extra or {}).items():
            package.writestr(name, data)
    return out.getvalue()


def body(paragraphs: str | bytes) -> bytes:
    if isinstance(paragraphs, str):
        paragraphs = paragraphs.encode()
    return f"<w:document {W}><w:body>".encode() + paragraphs + b"</w:body></w:document>"


def peak_bytes(call) -> tuple[int, BaseException | None]:
    """What ``call()`` allocated at its peak (Python's allocator) and what it raised."""
    tracemalloc.start()
    try:
        call()
        raised = None
    except Exception as exc:  # noqa: BLE001 - returned for the test to judge
        raised = exc
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak, raised


def set_declared_size(archive: bytes, name: str, size: int) -> bytes:
    """Make the archive's central directory entry for ``name`` declare ``size`` bytes
    inflated (a header that lies)."""
    buf = bytearray(archive)
    entry = buf.rfind(b"PK\x01\x02")  # the last central directory entry
    while entry >= 0:
        name_len = struct.unpack_from("<H", buf, entry + 28)[0]
        if bytes(buf[entry + 46 : entry + 46 + name_len]).decode() == name:
            struct.pack_into("<I", buf, entry + 24, size)
            return bytes(buf)
        entry = buf.rfind(b"PK\x01\x02", 0, entry)
    raise AssertionError(f"{name} not in the archive")


def test_a_docx_whose_text_part_inflates_beyond_the_bound_is_refused_before_it_is_read():
    filler = b"<w:p><w:r><w:t>" + b"A" * (1 << 20) + b"</w:t></w:r></w:p>"
    xml = body(filler * (DOCX_MAX_PART_BYTES // len(filler) + 8))
    data = word_package(xml)
    del xml
    assert len(data) < 1 << 20  # small on disk
    peak, raised = peak_bytes(lambda: parse_file("hearing.docx", data))
    assert isinstance(raised, ImportRejected)
    assert str(raised).startswith("This Word document was refused: one of its parts would expand")
    assert "at most 64.0 MB are accepted for one part." in str(raised)
    assert peak < 8 << 20  # nothing was inflated


def test_a_docx_part_that_is_not_text_is_bounded_too():
    data = word_package(
        body("<w:p><w:r><w:t>MR. LONG: Yes.</w:t></w:r></w:p>"),
        extra={"word/media/image1.png": b"\0" * (DOCX_MAX_PART_BYTES + 1)},
    )
    peak, raised = peak_bytes(lambda: docx_text(data))
    assert isinstance(raised, ImportRejected)
    assert str(raised) == (
        "This Word document was refused: one of its parts would expand to 67,108,865 "
        "bytes; at most 67,108,864 bytes (64.0 MB) are accepted for one part."
    )
    assert peak < 8 << 20


def test_a_docx_whose_text_part_understates_its_size_is_refused_as_damaged():
    xml = body("<w:p><w:r><w:t>MR. LONG: Yes.</w:t></w:r></w:p>" * 20000)
    data = set_declared_size(word_package(xml), "word/document.xml", 4000)
    with pytest.raises(ImportRejected) as err:
        docx_text(data)
    assert "larger than its header says" in str(err.value) or "damaged" in str(err.value)


def test_a_docx_compressed_with_bzip2_is_refused_before_anything_inflates():
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(word_package(body("<w:p/>")))) as source:
        with zipfile.ZipFile(out, "w", zipfile.ZIP_BZIP2) as package:
            for info in source.infolist():
                package.writestr(info.filename, source.read(info.filename))
    with pytest.raises(ImportRejected) as err:
        docx_text(out.getvalue())
    assert "compression method that is not accepted (bzip2)" in str(err.value)


def test_a_zip_member_whose_header_understates_its_size_is_refused_in_little_memory():
    """bzip2 inflates without a bound on one read: a member that says it holds 100
    bytes and holds 100 MB filled the memory at its first read."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("notes.txt", b"ATTORNEY VANCE: Good morning.\n")
        info = zipfile.ZipInfo("hearing.txt")
        info.compress_type = zipfile.ZIP_BZIP2
        archive.writestr(info, b"\0" * (100 << 20))
    data = set_declared_size(out.getvalue(), "hearing.txt", 100)
    assert len(data) < 4096
    peak, raised = peak_bytes(lambda: list(iter_bytes("upload.zip", data, **LIMITS)))
    assert raised is None
    assert peak < 8 << 20
    [source] = list(iter_bytes("upload.zip", data, **LIMITS))  # refused whole
    assert source.data is None
    assert str(source.error).startswith(
        "The zip archive was refused: it uses a compression method that is not accepted (bzip2)"
    )


def test_a_deflated_zip_member_longer_than_its_header_says_is_refused_with_a_sentence():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("hearing.txt", b"ATTORNEY VANCE: Good morning.\n" * 200_000)
    data = set_declared_size(out.getvalue(), "hearing.txt", 1000)
    peak, raised = peak_bytes(lambda: list(iter_bytes("upload.zip", data, **LIMITS)))
    assert raised is None
    [source] = list(iter_bytes("upload.zip", data, **LIMITS))
    assert str(source.error) == (
        "This archive member cannot be read (BadZipFile): it is damaged, encrypted, or a "
        "member is larger than its header says."
    )
    assert peak < 8 << 20


def test_an_element_dense_docx_text_part_is_read_in_little_memory(tmp_path):
    """Two million runs in 43 MB of XML (a 140 KB file): python-docx built the tree and
    took 700 MB; the stream parser keeps the text only."""
    xml = body("<w:p>" + "<w:r><w:t>a</w:t></w:r>" * 2_000_000 + "</w:p>")
    path = tmp_path / "dense.docx"
    path.write_bytes(word_package(xml))
    del xml
    script = textwrap.dedent(
        f"""
        import resource, sys
        from engine.importing.documents import docx_text
        data = open({str(path)!r}, "rb").read()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        text = docx_text(data)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(len(text), (after - before) // 1024)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    chars, grown_mb = (int(x) for x in done.stdout.split())
    assert chars == 2_000_000
    assert grown_mb < 100, f"the parse grew the process by {grown_mb} MB"


@pytest.mark.parametrize("name", ["upload.zip", "hearing.docx"])
def test_an_archive_listing_too_many_entries_is_refused_before_its_directory_is_read(name):
    """zipfile builds an object per directory entry: 500,000 empty entries (41 MB) took
    286 MB and 30 s before the member count refused them."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for i in range(60_000):
            archive.writestr(f"{i}.txt", b"")
    data = out.getvalue()
    if name.endswith(".zip"):
        peak, raised = peak_bytes(lambda: list(iter_bytes(name, data, **LIMITS)))
        assert raised is None
        [source] = list(iter_bytes(name, data, **LIMITS))
        error = source.error
    else:
        peak, error = peak_bytes(lambda: docx_text(data))
    assert peak < 4 << 20
    assert isinstance(error, ImportRejected)
    assert "its directory lists more than" in str(error) and "entries" in str(error)
