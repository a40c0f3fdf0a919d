"""Bad input: each file gets a clear message, nothing is created, the batch goes on."""

import functools
import io
import zipfile

import pytest
from fpdf import FPDF
from PIL import Image

from engine.importing import parse_file
from engine.importing.errors import (
    CorruptPdf,
    EmptyFile,
    EncryptedPdf,
    ImportRejected,
    NeedsOcr,
    NoTranscript,
    NotSupported,
)
from transcripts.models import Transcript, Utterance
from transcripts.services.importing import (
    sources_from_bytes,
    sources_from_paths,
    transcript_import,
    transcripts_import_batch,
)

SPEECH = "PRESIDING COMMISSIONER ALDEN: Good morning.\nATTORNEY VANCE: Good morning.\n"


def text_pdf(text: str = "PRESIDING COMMISSIONER ALDEN: Good morning.") -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.text(20, 20, text)
    return bytes(pdf.output())


@functools.cache
def bad_files() -> dict[str, bytes]:
    encrypted = FPDF()
    encrypted.add_page()
    encrypted.set_font("Helvetica", size=12)
    encrypted.text(20, 20, "PRESIDING COMMISSIONER ALDEN: Good morning.")
    encrypted.set_encryption(owner_password="owner-pw", user_password="user-pw")

    png = io.BytesIO()
    Image.new("RGB", (300, 120), "white").save(png, "PNG")
    png.seek(0)
    scanned = FPDF()
    scanned.add_page()
    scanned.image(png, x=10, y=10, w=150)

    good = text_pdf()
    return {
        "not-a-pdf.pdf": b"This is a note, not a PDF.\n",
        "encrypted.pdf": bytes(encrypted.output()),
        "corrupt.pdf": good[: len(good) // 3],
        "scanned.pdf": bytes(scanned.output()),
        "empty.pdf": b"",
        "empty.txt": b"   \n",
        "picture.png": png.getvalue(),
        "binary.txt": png.getvalue(),
    }


@pytest.mark.parametrize(
    ("name", "error", "words"),
    [
        ("not-a-pdf.pdf", NotSupported, "not a PDF"),
        ("encrypted.pdf", EncryptedPdf, "encrypted"),
        ("corrupt.pdf", CorruptPdf, "damaged"),
        ("scanned.pdf", NoTranscript, "OCR found no text"),
        ("empty.pdf", EmptyFile, "empty"),
        ("empty.txt", EmptyFile, "empty"),
        ("picture.png", NotSupported, "Unsupported file type"),
        ("binary.txt", NotSupported, "neither a PDF nor a text file"),
    ],
)
def test_bad_file_is_refused_with_a_clear_message(name, error, words):
    with pytest.raises(error) as info:
        parse_file(name, bad_files()[name])
    assert words in info.value.message


def test_scan_without_tesseract_says_ocr_is_needed(monkeypatch):
    from engine.importing import ocr

    monkeypatch.setattr(ocr, "ocr_available", lambda: False)
    with pytest.raises(NeedsOcr) as info:
        parse_file("scanned.pdf", bad_files()["scanned.pdf"])
    assert "needs OCR" in info.value.message


def test_bad_files_create_nothing_and_do_not_stop_the_batch(db):
    sources = []
    for name, data in bad_files().items():
        sources += sources_from_bytes(name, data)
    sources += sources_from_bytes("good.txt", SPEECH.encode())
    outcomes = transcripts_import_batch(sources=sources)
    by_path = {o.path: o for o in outcomes}
    assert by_path["good.txt"].ok and by_path["good.txt"].transcript_id
    bad = [o for o in outcomes if o.path != "good.txt"]
    assert bad and all(not o.ok and o.error and o.code for o in bad)
    assert Transcript.objects.count() == 1
    assert Utterance.objects.count() == 2


def test_file_over_the_size_limit_is_refused(db, settings):
    settings.IMPORT_MAX_FILE_BYTES = 1000
    [source] = sources_from_bytes("big.txt", SPEECH.encode() * 40)
    assert source.error is not None and "too large" in source.error.message
    with pytest.raises(ImportRejected, match="too large"):
        transcript_import(name="big.txt", data=SPEECH.encode() * 40)
    assert not Transcript.objects.exists()


def test_same_file_twice_is_reported_not_duplicated(db):
    first = transcript_import(name="a.txt", data=SPEECH.encode(), annotate=False)
    outcomes = transcripts_import_batch(
        sources=sources_from_bytes("copy-of-a.txt", SPEECH.encode())
    )
    [again] = outcomes
    assert not again.ok and again.code == "duplicate" and again.duplicate_of == first.pk
    assert f"transcript {first.pk}" in again.error
    assert Transcript.objects.count() == 1


def _zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buf.getvalue()


@pytest.mark.parametrize(
    "evil", ["../evil.txt", "/etc/evil.txt", "a/../../evil.txt", "C:/evil.txt"]
)
def test_zip_with_traversal_paths_is_refused_whole(db, evil):
    data = _zip({"fine.txt": SPEECH.encode(), evil: SPEECH.encode().replace(b"morning", b"day")})
    [source] = sources_from_bytes("upload.zip", data)
    assert source.error is not None and source.error.code == "unsafe_archive"
    assert "outside the archive" in source.error.message
    outcomes = transcripts_import_batch(sources=[source])
    assert not outcomes[0].ok and not Transcript.objects.exists()


def test_zip_bomb_is_capped_by_members_and_uncompressed_size(db, settings):
    settings.IMPORT_MAX_ZIP_MEMBERS = 3
    many = _zip({f"f{i}.txt": f"ATTORNEY VANCE: Line {i}.".encode() for i in range(5)})
    [source] = sources_from_bytes("many.zip", many)
    assert source.error is not None and "at most 3" in source.error.message

    settings.IMPORT_MAX_ZIP_MEMBERS = 500
    settings.IMPORT_MAX_FILE_BYTES = 10_000
    settings.IMPORT_MAX_ZIP_BYTES = 40_000
    bomb = _zip({"bomb.txt": b"A" * 5_000_000})  # a few KB compressed
    assert len(bomb) < 40_000
    [source] = sources_from_bytes("bomb.zip", bomb)
    assert source.error is not None and "expand" in source.error.message
    assert not Transcript.objects.exists()


def test_zip_members_are_imported_and_bad_members_reported(db):
    data = _zip(
        {
            "hearings/one.txt": SPEECH.encode(),
            "hearings/two.pdf": text_pdf("DEPUTY COMMISSIONER MARSH: Thank you."),
            "hearings/notes.docx": b"PK-not-really",
            "hearings/empty.txt": b"",
        }
    )
    outcomes = transcripts_import_batch(
        sources=sources_from_bytes("batch.zip", data), annotate=False
    )
    status = {o.path.rsplit("/", 1)[-1]: (o.ok, o.code) for o in outcomes}
    assert status == {
        "empty.txt": (False, "empty"),
        "notes.docx": (False, "not_supported"),
        "one.txt": (True, ""),
        "two.pdf": (True, ""),
    }
    assert Transcript.objects.count() == 2


def test_folder_paths_are_walked_and_missing_paths_reported(db, tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "one.txt").write_bytes(SPEECH.encode())
    (tmp_path / "two.txt").write_bytes(b"DEPUTY COMMISSIONER MARSH: Hello.")
    (tmp_path / "ignored.csv").write_bytes(b"a,b")
    sources = sources_from_paths([str(tmp_path), str(tmp_path / "missing.pdf")])
    assert [s.name for s in sources] == ["one.txt", "two.txt", "missing.pdf"]
    assert sources[-1].error is not None and "No such file" in sources[-1].error.message
