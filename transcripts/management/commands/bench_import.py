"""Measure the PDF import against a bare pypdfium2 text extraction of the same file.

    python manage.py bench_import [FILE.pdf] [--words 15000] [--runs 3] [--plumber] [--json]

Without FILE a synthetic hearing of ``--words`` words (15,000: 76 pages) is rendered.
In one run it times, best of ``--runs``: the bare extraction (open with pypdfium2, every
page's text and every character's box), the import (``parse_file``: reading, layout
analysis, cover, segmentation) and, with ``--plumber``, the pdfplumber reader the import
used before. The goal is import ≤ 2 × bare. Touches no database.
"""

import json
import os
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError


def bare_extraction(data: bytes) -> int:
    """Open with pypdfium2, read every page's text and every character's box."""
    import pypdfium2

    pdf = pypdfium2.PdfDocument(data)
    chars = 0
    try:
        for i in range(len(pdf)):
            page = pdf[i]
            textpage = page.get_textpage()
            count = textpage.count_chars()
            textpage.get_text_range(0, count) if count > 0 else ""
            for c in range(count):
                textpage.get_charbox(c, loose=True)
            chars += max(0, count)
            textpage.close()
            page.close()
    finally:
        pdf.close()
    return chars


def _best(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


class Command(BaseCommand):
    help = "Time the PDF import against a bare pypdfium2 extraction (goal: ≤ 2×)."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="A PDF (default: a synthetic hearing).")
        parser.add_argument("--words", type=int, default=15000)
        parser.add_argument("--runs", type=int, default=3)
        parser.add_argument("--plumber", action="store_true", help="Also time pdfplumber.")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        from engine.importing import parse_file

        if options["file"]:
            path = Path(options["file"])
            if not path.is_file():
                raise CommandError(f"No such file: {path}")
            data, name = path.read_bytes(), path.name
        else:
            from engine.synthetic import generate_hearing, render_pdf_bytes

            data = render_pdf_bytes(generate_hearing(1, words=options["words"]))
            name = f"synthetic hearing ({options['words']} words)"
        runs = max(1, options["runs"])
        chars = bare_extraction(data)
        parsed = parse_file("bench.pdf", data)
        result = {
            "file": name,
            "pages": parsed.page_count,
            "words": len(parsed.text.split()),
            "characters": chars,
            "runs": runs,
            "bare_pypdfium2_s": round(_best(lambda: bare_extraction(data), runs), 3),
            "import_s": round(_best(lambda: parse_file("bench.pdf", data), runs), 3),
            "load_average": [round(x, 2) for x in os.getloadavg()],
        }
        result["ratio"] = round(result["import_s"] / max(result["bare_pypdfium2_s"], 1e-6), 2)
        if options["plumber"]:
            from engine.importing.pdf import plumber_pages

            result["pdfplumber_read_s"] = round(_best(lambda: plumber_pages(data), 1), 3)
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"{name}: {result['pages']} pages, {result['words']} words\n"
            f"  bare pypdfium2 extraction  {result['bare_pypdfium2_s']:.3f} s\n"
            f"  import (parse_file)        {result['import_s']:.3f} s  "
            f"({result['ratio']}× bare; goal ≤ 2×)\n"
            + (
                f"  pdfplumber reading         {result['pdfplumber_read_s']:.3f} s\n"
                if options["plumber"]
                else ""
            )
            + f"  load average {result['load_average']}"
        )
