"""OCR bounds (engine/importing/ocr.py): a page limit checked before any render, pages
rendered as they are read, and Tesseract processes that end with their import."""

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from engine.importing import ocr, parse_pdf
from engine.importing.errors import NeedsOcr, TooLarge
from engine.progress import Cancelled

ROOT = Path(__file__).resolve().parent.parent
needs_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="tesseract-ocr is not installed"
)


def blank_pdf(pages: int) -> bytes:
    """A PDF of ``pages`` letter pages with nothing on them (no text layer: a scan)."""
    import pypdfium2

    pdf = pypdfium2.PdfDocument.new()
    for _ in range(pages):
        pdf.new_page(612, 792)
    buf = io.BytesIO()
    pdf.save(buf)
    pdf.close()
    return buf.getvalue()


@pytest.fixture
def renders(monkeypatch):
    """Counts page renders (pdfium still renders); OCR counts as installed."""
    calls: list[int] = []
    real = ocr._render

    def render(pdf, index, scale):
        calls.append(index)
        return real(pdf, index, scale)

    monkeypatch.setattr(ocr, "ocr_available", lambda: True)
    monkeypatch.setattr(ocr, "_render", render)
    return calls


def test_a_scan_over_the_page_limit_is_refused_with_a_sentence_before_any_render(renders):
    with pytest.raises(TooLarge) as refused:
        parse_pdf(blank_pdf(40), ocr_max_pages=25)
    assert refused.value.code == "too_large"
    assert refused.value.message.startswith(
        "This scan has 40 pages; OCR reads at most 25 pages of one file (OCR_MAX_PAGES)."
    )
    assert renders == []


def test_the_page_limit_is_the_setting_in_the_import_and_its_dry_run(
    renders, settings, db, tmp_path
):
    from transcripts.services.importing import transcript_import

    settings.OCR_MAX_PAGES = 12
    data = blank_pdf(13)
    with pytest.raises(TooLarge, match="OCR reads at most 12 pages"):
        transcript_import(name="scan.pdf", data=data, annotate=False)
    path = tmp_path / "scan.pdf"
    path.write_bytes(data)
    out = StringIO()
    with pytest.raises(SystemExit):  # exit status 1: a file could not be imported
        call_command("import_transcripts", str(path), "--dry-run", "--json", stdout=out)
    (result,) = json.loads(out.getvalue())["files"]
    assert not result["ok"] and result["code"] == "too_large"
    assert "13 pages; OCR reads at most 12" in result["error"]
    assert renders == []


def test_pages_are_rendered_as_they_are_read_not_ahead(renders, monkeypatch):
    # Before, every page was rendered (7 MB each at 300 dpi) before the first was read.
    ahead: list[int] = []

    def read(png, scale, width):
        return ocr.OcrPage(lines=[], words=[], low=[])

    def progress(done, total):
        ahead.append(len(renders) - done)

    monkeypatch.setattr(ocr, "_ocr_image", read)
    pages, report = ocr.ocr_pdf(blank_pdf(30), on_page=progress, dpi=20)
    assert report["pages"] == len(pages) == 30 and sorted(renders) == list(range(30))
    assert max(ahead) <= ocr.OCR_WORKERS


def test_a_cancel_while_a_page_is_read_is_seen_within_the_page(renders, monkeypatch):
    # One slow page used to hold the cancel until Tesseract had read it (minutes).
    started = []

    def slow(png, scale, width):
        started.append(time.monotonic())
        time.sleep(5)
        return ocr.OcrPage(lines=[], words=[], low=[])

    def cancel_once_reading(done, total):
        if started:
            raise Cancelled("the import job was cancelled")

    monkeypatch.setattr(ocr, "_ocr_image", slow)
    monkeypatch.setattr(ocr, "OCR_WORKERS", 1)
    monkeypatch.setattr(ocr, "CHECK_EVERY_S", 0.05)
    with pytest.raises(Cancelled):
        ocr.ocr_pdf(blank_pdf(3), on_page=cancel_once_reading, dpi=20)
    assert renders == [0]


# --- Tesseract processes -----------------------------------------------------------------


def tesseracts(marker: str) -> list[int]:
    """Live processes reading a page image under ``marker`` (a temporary folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        words = [part.decode(errors="replace") for part in cmdline]
        if any("tesseract" in w for w in words[:1]) and any(marker in w for w in words):
            found.append(int(entry.name))
    return found


def wait_for(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.fixture(scope="module")
def tiny_scan() -> bytes:
    from engine.synthetic.families import family_document
    from engine.synthetic.family_render import render_pdf, render_scan

    return render_scan(render_pdf(family_document(8, "federal", words=400)), seed=8, pages=3)


@needs_tesseract
def test_a_cancelled_ocr_kills_the_tesseract_reading_a_page(tiny_scan, tmp_path, monkeypatch):
    import tempfile

    marker = str(tmp_path / "pages")
    os.makedirs(marker)
    monkeypatch.setattr(tempfile, "tempdir", marker)
    ended: list[int] = []
    real_end = ocr.Children.end

    def end(self, proc):
        real_end(self, proc)
        ended.append(proc.returncode)

    monkeypatch.setattr(ocr.Children, "end", end)

    def cancel_once_tesseract_runs(done, total):
        if tesseracts(marker):
            raise Cancelled("the import job was cancelled")

    monkeypatch.setattr(ocr, "CHECK_EVERY_S", 0.05)
    with pytest.raises(Cancelled):
        ocr.ocr_pdf(tiny_scan, on_page=cancel_once_tesseract_runs)
    assert tesseracts(marker) == []
    assert -signal.SIGKILL in ended  # killed, not waited for


@needs_tesseract
def test_a_tesseract_over_its_time_is_killed_and_the_page_refused(tiny_scan, tmp_path, monkeypatch):
    # a "tesseract" that hangs in a child of its own (the kill reaches its whole group)
    fake = tmp_path / "tesseract"
    fake.write_text("#!/bin/sh\nsh -c 'sleep 60; true' \"$0-child\"\n")
    fake.chmod(0o755)
    monkeypatch.setattr(ocr, "tesseract_path", lambda: str(fake))
    monkeypatch.setattr(ocr, "PAGE_TIMEOUT_S", 0.5)
    marker = str(tmp_path)
    with pytest.raises(NeedsOcr, match="OCR of a scanned page failed"):
        ocr.ocr_pdf(tiny_scan)
    try:
        assert wait_for(lambda: not hung(marker), 1.0), hung(marker)
    finally:  # what the old behaviour left: the script and its sleeping child
        for pid in hung(marker):
            children = Path(f"/proc/{pid}/task/{pid}/children")
            for child in children.read_text().split() if children.exists() else []:
                os.kill(int(child), signal.SIGKILL)
            os.kill(pid, signal.SIGKILL)


def hung(marker: str) -> list[int]:
    """Live processes whose command line names ``marker``."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline:
                out.append(int(entry.name))
    return out


CHILD = """
import sys
sys.path.insert(0, sys.argv[2])
from engine.importing import ocr
ocr.ocr_pdf(open(sys.argv[1], "rb").read())
"""


@needs_tesseract
def test_a_terminated_import_leaves_no_tesseract_running(tiny_scan, tmp_path):
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(tiny_scan)
    marker = str(tmp_path / "pages")
    os.makedirs(marker)
    env = dict(os.environ, TMPDIR=marker, ANONREVIEW_OCR_WORKERS="2")
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(scan), str(ROOT)], env=env)
    try:
        assert wait_for(lambda: bool(tesseracts(marker)), 120), "no tesseract started"
        child.send_signal(signal.SIGTERM)  # the default action: the process dies at once
        child.wait(timeout=30)
        assert child.returncode == -signal.SIGTERM
        assert wait_for(lambda: not tesseracts(marker), 1.0), tesseracts(marker)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for pid in tesseracts(marker):  # the old behaviour: do not leave them behind
            os.kill(pid, signal.SIGKILL)
