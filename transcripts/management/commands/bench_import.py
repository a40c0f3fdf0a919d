"""Measure the PDF import against a bare pypdfium2 text extraction of the same file.

    python manage.py bench_import [FILE.pdf] [--words 15000] [--runs 3] [--plumber] [--json]
    python manage.py bench_import --text [--lines 20000,200000] [--runs 3] [--json]

Without FILE a synthetic hearing of ``--words`` words (15,000: 76 pages) is rendered.
In one run it times, best of ``--runs``: the bare extraction (open with pypdfium2, every
page's text and every character's box), the import (``parse_file``: reading, layout
analysis, cover, segmentation) and, with ``--plumber``, the pdfplumber reader the import
used before. The goal is import ≤ 2 × bare. Touches no database.

With ``--text`` it times the text import (``parse_file`` of a ``.txt``) of generated
files of each ``--lines`` count in three shapes: prose (one sentence per line, no speaker
turns), short tags the parser does not take for speakers (``B: y1``), and speaker turns.
The import must be linear in the input: the time per 1,000 lines of the longest file
within 2× of the shortest's, in every shape (20,000 prose lines took 128 s).
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


TEXT_SHAPES = ("prose", "short_tags", "turns")


def text_lines(shape: str, lines: int) -> bytes:
    """A generated text file of ``lines`` lines (no names, no personal data)."""
    if shape == "prose":
        rows = (
            f"This is sentence number {i} of the statement, read into the record."
            for i in range(lines)
        )
    elif shape == "short_tags":
        rows = (f"B: y{i}" for i in range(lines))
    elif shape == "turns":
        rows = (
            f"{'PRESIDING COMMISSIONER' if i % 2 else 'ATTORNEY'}: Line {i} of the hearing."
            for i in range(lines)
        )
    else:
        raise ValueError(shape)
    return ("\n".join(rows) + "\n").encode()


def text_bench(counts: list[int], runs: int) -> dict:
    """Time the text import of each shape at each line count (best of ``runs``)."""
    from engine.importing import parse_file

    shapes = {}
    ratios = {}
    for shape in TEXT_SHAPES:
        rows = []
        for n in counts:
            data = text_lines(shape, n)
            seconds = _best(lambda data=data: parse_file("bench.txt", data), runs)
            rows.append(
                {
                    "lines": n,
                    "import_s": round(seconds, 3),
                    "per_1000_lines_s": round(1000 * seconds / n, 4),
                }
            )
        shapes[shape] = rows
        per = [r["per_1000_lines_s"] for r in rows]
        ratios[shape] = round(per[-1] / max(min(per), 1e-9), 2)
    return {
        "mode": "text",
        "runs": runs,
        "shapes": shapes,
        "ratio_longest_to_best": ratios,
        "linear": all(r <= 2 for r in ratios.values()),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


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
        parser.add_argument(
            "--text", action="store_true", help="Time the text import of generated files."
        )
        parser.add_argument(
            "--lines", default="20000,200000", help="With --text: line counts (comma-separated)."
        )

    def handle(self, *args, **options):
        from engine.importing import parse_file

        if options["text"]:
            return self._text(options)

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

    def _text(self, options) -> None:
        try:
            counts = sorted(int(n) for n in options["lines"].split(",") if n.strip())
        except ValueError as exc:
            raise CommandError("--lines: whole numbers separated by commas") from exc
        if not counts or counts[0] <= 0:
            raise CommandError("--lines: at least one positive count")
        result = text_bench(counts, max(1, options["runs"]))
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        for shape, rows in result["shapes"].items():
            self.stdout.write(f"{shape}:")
            for row in rows:
                self.stdout.write(
                    f"  {row['lines']:>8} lines  {row['import_s']:8.3f} s  "
                    f"{row['per_1000_lines_s']:.4f} s per 1,000 lines"
                )
            self.stdout.write(
                f"  longest / best per 1,000 lines: {result['ratio_longest_to_best'][shape]}× "
                "(goal ≤ 2×)"
            )
        self.stdout.write(f"linear: {result['linear']}; load average {result['load_average']}")
