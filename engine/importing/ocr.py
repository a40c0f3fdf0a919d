"""Scanned PDFs → pages of text lines, with Tesseract. Django-free.

A PDF without a text layer is rendered page by page with pypdfium2 (``OCR_DPI``) and
read by the ``tesseract`` program (Debian's ``tesseract-ocr``; ``make run``/``make test``
install it) as TSV: every word with its box and confidence. Words are grouped into
printed lines by their vertical position (the margin line-number column joins its line,
as in a text-layer PDF), so the same layout analysis applies. Pages are read in
parallel (one Tesseract process per page, ``OCR_WORKERS``).

Words read with low confidence (< ``LOW_CONFIDENCE``) are found again in the canonical
text afterwards and reported as character ranges (``metadata["ocr"]["low_confidence"]``)
for the review page to show.

Bounds: a scan of more than ``max_pages`` pages (``OCR_MAX_PAGES``; the app passes its
setting) is refused with a sentence before any page is rendered; a page is rendered only
when a Tesseract slot is free (at most ``OCR_WORKERS`` page images exist at a time, so
memory does not grow with the page count: a 10,000-page scan of one image had every page
rendered ahead of Tesseract, 7 MB each); each Tesseract runs in a process group of its
own, is killed with its group when the run ends early (a cancel, an error) and, on
Linux, when the thread that started it dies (the importing process killed by SIGTERM or
SIGKILL left its Tesseract processes running).
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from statistics import median

from engine.importing.errors import CorruptPdf, NeedsOcr, NoTranscript, TooLarge
from engine.importing.layout import RawLine

OCR_DPI = int(os.environ.get("ANONREVIEW_OCR_DPI", "300"))
OCR_WORKERS = max(
    1, int(os.environ.get("ANONREVIEW_OCR_WORKERS", str(min(4, os.cpu_count() or 1))))
)
LOW_CONFIDENCE = 60.0
PAGE_TIMEOUT_S = 300
# The largest page read by OCR, in points (72 per inch): 30 inches, well above any
# transcript's paper (letter: 8.5 × 11 in). A 14,400-pt page (200 in, the PDF maximum)
# would be a 3.6-gigapixel image at 300 dpi (Tesseract then failed and the
# message blamed its installation).
MAX_OCR_POINTS = 30 * 72
# The most pages read by OCR when the caller gives no limit (the app passes its
# OCR_MAX_PAGES setting): a long trial volume has about 300 pages; each page takes
# Tesseract seconds (over two minutes for a dense one), so 10,000 pages would run for days.
OCR_MAX_PAGES = 500
# How often a page being read looks at the caller's cancellation point (seconds).
CHECK_EVERY_S = 1.0


def tesseract_path() -> str | None:
    return shutil.which("tesseract")


def ocr_available() -> bool:
    return tesseract_path() is not None


@dataclass
class Word:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    conf: float


@dataclass
class OcrPage:
    lines: list[RawLine]
    words: list[Word]
    low: list[str] = field(default_factory=list)  # low-confidence words, reading order


def _tsv_words(tsv: str, scale: float) -> list[Word]:
    words: list[Word] = []
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        text = (row.get("text") or "").strip()
        if row.get("level") != "5" or not text:
            continue
        try:
            left, top = float(row["left"]), float(row["top"])
            width, height = float(row["width"]), float(row["height"])
            conf = float(row["conf"])
        except (KeyError, TypeError, ValueError):
            continue
        words.append(
            Word(
                text,
                left / scale,
                (left + width) / scale,
                top / scale,
                (top + height) / scale,
                conf,
            )
        )
    return words


def group_lines(words: list[Word], page_width: float) -> list[tuple[RawLine, list[Word]]]:
    """Words → printed lines: a word joins the line whose vertical centre is within
    half a typical word height; lines are ordered top to bottom, words left to right."""
    if not words:
        return []
    tall = median(w.bottom - w.top for w in words) or 10.0
    rows: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (w.top + w.bottom) / 2):
        centre = (word.top + word.bottom) / 2
        if rows:
            last = rows[-1]
            last_centre = sum((w.top + w.bottom) / 2 for w in last) / len(last)
            if abs(centre - last_centre) <= tall * 0.5:
                last.append(word)
                continue
        rows.append([word])
    out = []
    centre_x = page_width / 2
    for row in rows:
        row.sort(key=lambda w: w.x0)
        # Skip a leading margin number (digits followed by a wide gap), as pdf.py does.
        body = row
        if len(row) > 1 and row[0].text.isdigit() and row[1].x0 - row[0].x1 > 10:
            body = row[1:]
        x0, x1 = body[0].x0, body[-1].x1
        text = " ".join(w.text for w in row)
        line = RawLine(text=text, x0=x0, x1=x1, centered=abs((x0 + x1) / 2 - centre_x) < 12)
        out.append((line, row))
    return out


_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the Tesseract child, before it starts (Linux): SIGKILL when the thread that
    started it dies, whatever kills the importing process."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the kill on the way out still holds
        pass


class Children:
    """The Tesseract processes of one OCR run. Each starts in a session (process group)
    of its own; ``kill_all`` kills every group still running and refuses new ones."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[subprocess.Popen] = set()
        self.closed = False

    def start(self, args: list[str], env: dict) -> subprocess.Popen:
        with self._lock:
            if self.closed:
                raise OSError("the OCR run has ended")
            proc = subprocess.Popen(
                args,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                start_new_session=True,
                preexec_fn=_die_with_parent if os.name == "posix" else None,  # noqa: PLW1509
            )
            self._running.add(proc)
        return proc

    def end(self, proc: subprocess.Popen) -> None:
        """Kill ``proc``'s group unless it has exited, and reap it."""
        if proc.poll() is None:
            _kill_group(proc)
        proc.wait()
        with self._lock:
            self._running.discard(proc)

    def kill_all(self) -> None:
        with self._lock:
            self.closed = True
            running = list(self._running)
        for proc in running:
            _kill_group(proc)

    def running(self) -> int:
        with self._lock:
            return sum(1 for proc in self._running if proc.poll() is None)


def _kill_group(proc: subprocess.Popen) -> None:
    if proc.pid <= 1:  # killpg(0) would be this process's own group
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# The pool threads of an OCR run know its Children (``ocr_pdf`` binds them).
_thread = threading.local()


def _bind_children(children: Children) -> None:
    _thread.children = children


def _ocr_image(png: bytes, scale: float, page_width: float) -> OcrPage:
    children = getattr(_thread, "children", None) or Children()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "page.png")
        with open(path, "wb") as fh:
            fh.write(png)
        del png
        env = dict(os.environ, OMP_THREAD_LIMIT="1")
        args = [tesseract_path() or "tesseract", path, "stdout", "--psm", "6", "-l", "eng", "tsv"]
        try:
            proc = children.start(args, env)
        except OSError as exc:
            raise NeedsOcr(
                f"OCR of a scanned page failed ({type(exc).__name__}); the file was not imported."
            ) from exc
        try:
            stdout, _stderr = proc.communicate(timeout=PAGE_TIMEOUT_S)
        except subprocess.TimeoutExpired as exc:
            raise NeedsOcr(
                f"OCR of a scanned page failed ({type(exc).__name__}); the file was not imported."
            ) from exc
        finally:
            children.end(proc)
    if proc.returncode != 0:
        raise NeedsOcr(
            f"OCR of a scanned page failed (Tesseract exit status {proc.returncode}): the "
            "page image could not be read, or tesseract-ocr's English data is missing."
        )
    words = _tsv_words(stdout.decode("utf-8", errors="replace"), scale)
    grouped = group_lines(words, page_width)
    low = [w.text for _, row in grouped for w in row if w.conf < LOW_CONFIDENCE and w.conf >= 0]
    return OcrPage(lines=[line for line, _ in grouped], words=words, low=low)


def _render(pdf, index: int, scale: float) -> tuple[bytes, float]:
    page = pdf[index]
    try:
        width, height = float(page.get_width()), float(page.get_height())
        if max(width, height) > MAX_OCR_POINTS:
            raise NeedsOcr(
                f"Page {index + 1} is {width / 72:.0f} × {height / 72:.0f} inches, too large to "
                "read by OCR (transcript pages are letter-sized): scan or export it again at "
                "its paper size."
            )
        image = page.render(scale=scale, grayscale=True).to_pil()
    finally:
        page.close()
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue(), width


def too_many_pages(total: int, limit: int) -> TooLarge:
    return TooLarge(
        f"This scan has {total:,} pages; OCR reads at most {limit:,} pages of one file "
        "(OCR_MAX_PAGES). Split the PDF into parts of at most that many pages and import "
        "them one by one."
    )


def ocr_pdf(
    data: bytes,
    *,
    on_page: Callable[[int, int], None] | None = None,
    dpi: int = OCR_DPI,
    max_pages: int | None = None,
) -> tuple[list[OcrPage], dict]:
    """OCR every page. Returns (pages, report: engine, pages, seconds, seconds_per_page).

    More than ``max_pages`` pages (default ``OCR_MAX_PAGES``) is refused before any page
    is rendered (``TooLarge``). A page is rendered when a Tesseract slot is free and its
    image is dropped once read; ``on_page(done, total)`` is called after each render,
    after each page read and every ``CHECK_EVERY_S`` while a page is being read (the
    caller's cancellation point); whatever it raises ends the run with every Tesseract
    process killed."""
    import pypdfium2

    if not ocr_available():
        raise NeedsOcr(
            "The PDF has no text layer (it is a scan) and OCR is not installed: install "
            "Debian's tesseract-ocr (`make run` does) and import it again."
        )
    started = time.perf_counter()
    try:
        pdf = pypdfium2.PdfDocument(data)
    except Exception as exc:  # pdfium raises PdfiumError for damaged files
        raise CorruptPdf(
            f"The PDF is damaged and cannot be read ({type(exc).__name__}). "
            "Re-export it from the original document."
        ) from exc
    total = len(pdf)
    limit = OCR_MAX_PAGES if max_pages is None else max_pages
    if total > limit:
        pdf.close()
        raise too_many_pages(total, limit)
    scale = dpi / 72.0
    results: list[OcrPage | None] = [None] * total
    done = 0
    children = Children()
    pool = ThreadPoolExecutor(
        max_workers=OCR_WORKERS, initializer=_bind_children, initargs=(children,)
    )
    reading: deque = deque()  # (page index, future), in page order
    finished = False
    try:
        following = 0
        while following < total or reading:
            while following < total and len(reading) < OCR_WORKERS:
                png, width = _render(pdf, following, scale)  # pdfium is not thread-safe
                reading.append((following, pool.submit(_ocr_image, png, scale, width)))
                del png
                following += 1
                if on_page:  # a cancellation point (engine.progress)
                    on_page(done, total)
            index, future = reading.popleft()
            while True:
                try:
                    results[index] = future.result(timeout=CHECK_EVERY_S)
                    break
                except FutureTimeout:
                    if on_page:
                        on_page(done, total)
            done += 1
            if on_page:
                on_page(done, total)
        finished = True
    finally:
        if not finished:  # cancelled or failed: no page still being read is waited for
            children.kill_all()
        pool.shutdown(wait=True, cancel_futures=True)
        pdf.close()
    seconds = time.perf_counter() - started
    words = [w for page in results if page for w in page.words]
    report = {
        "engine": "tesseract",
        "dpi": dpi,
        "pages": total,
        "seconds": round(seconds, 1),
        "seconds_per_page": round(seconds / max(1, total), 2),
        "mean_confidence": round(sum(w.conf for w in words) / len(words), 1) if words else 0.0,
    }
    return [p for p in results if p is not None], report


def low_confidence_ranges(text: str, utterances, pages: list[OcrPage]) -> list[list[int]]:
    """Character ranges in the canonical text of the words OCR read with low confidence:
    each is looked for in its page's utterances, in reading order."""
    by_page: dict[int, list] = {}
    for u in utterances:
        by_page.setdefault(u.page, []).append(u)
    ranges: list[list[int]] = []
    for number, page in enumerate(pages, start=1):
        spans = by_page.get(number) or []
        if not spans or not page.low:
            continue
        start, end = spans[0].start, spans[-1].end
        cursor = start
        for word in page.low:
            token = word.strip(".,;:!?\"'()")
            if len(token) < 2:
                continue
            at = text.find(token, cursor, end)
            if at == -1:
                continue
            ranges.append([at, at + len(token)])
            cursor = at + len(token)
    return ranges


def parse_scanned_pdf(
    data: bytes,
    *,
    on_page: Callable[[int, int], None] | None = None,
    max_pages: int | None = None,
):
    """OCR a scanned PDF and parse it like a text-layer PDF (``parse.parse_pages``);
    ``max_pages``: see ``ocr_pdf``."""
    from engine.importing.filing import number_as_filed, strip_rows
    from engine.importing.parse import parse_pages

    pages, report = ocr_pdf(data, on_page=on_page, max_pages=max_pages)
    if not any(page.words for page in pages):
        raise NoTranscript(
            "The PDF is a scan and OCR found no text in it (blank or unreadable pages)."
        )
    rows = [p.lines for p in pages]
    numbers = strip_rows(rows)  # filing stamps, as in a text-layer PDF
    parsed = parse_pages(rows, source_format="pdf", layout_extra={"ocr": True})
    parsed = number_as_filed(parsed, numbers)
    report["low_confidence"] = low_confidence_ranges(parsed.text, parsed.utterances, pages)
    parsed.metadata["ocr"] = report
    parsed.notices.append(
        f"This PDF is a scan: its text was read by OCR ({report['pages']} pages, "
        f"{report['seconds_per_page']} s per page); {len(report['low_confidence'])} words read "
        "with low confidence are marked for review."
    )
    return parsed
