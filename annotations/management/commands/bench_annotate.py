"""``python manage.py bench_annotate [--words 15000] [--json]`` (DESIGN.md).

Generates a synthetic transcript of about ``--words`` words, loads the default ensemble
(models loaded and warmed before timing), times one annotation of it, and in the same
run times one full spaCy pass (``nlp(text)``, every component) of the configured
``SPACY_MODEL`` (default ``en_core_web_sm``) over the same text.
JSON: ``{"words", "ensemble_s", "spacy_sm_s", "ratio", "peak_rss_mb", "spans"}`` plus
``ensemble_cpu_s``, ``spacy_sm_cpu_s`` (process CPU seconds), ``detector_s`` (seconds each
member detects), ``stage_s`` (seconds of the decision table, second opinions and merge),
``threads`` and ``load_avg``. ``peak_rss_mb`` is the process's peak after the
ensemble run, before the reference spaCy pass (whose full parse no worker makes).
``--repeat N`` times N pairs, each an ensemble run then a spaCy pass: ``ratio`` and the
seconds are then the medians, ``ratios`` every pair's (on 2 shared cores one pair's ratio
moved by 0.1-0.3 from run to run; a median of pairs taken seconds apart moves less).
"""

import json
import os
import resource
import statistics
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand

from annotations.management.database import require_migrated_database
from annotations.services.annotation import ensemble_build
from engine.detectors.base import Document
from engine.detectors.ensemble import freeze_loaded
from engine.detectors.nlp import load_spacy


def peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024, 1)


class Command(BaseCommand):
    help = "Time the detector ensemble against one spaCy pass on a generated transcript."

    def add_arguments(self, parser):
        parser.add_argument("--words", type=int, default=15000)
        parser.add_argument("--seed", type=int, default=4242)
        parser.add_argument(
            "--detectors",
            default="",
            help="comma-separated detector names (default: all configured)",
        )
        parser.add_argument(
            "--repeat", type=int, default=1, help="pairs of runs; the median is reported"
        )
        parser.add_argument("--json", action="store_true", dest="as_json")

    def handle(self, *args, words, seed, detectors, repeat, as_json: bool, **options):
        require_migrated_database()
        from engine.synthetic.generator import generate_hearing

        hearing = generate_hearing(seed, words=words)
        ensemble = ensemble_build()
        only = [d.strip() for d in detectors.split(",") if d.strip()]
        if only:
            ensemble.detectors = [d for d in ensemble.detectors if d.name in only]
        ensemble.load()
        ensemble.run(Document(hearing.text[:2000], hearing.metadata))  # warm-up
        nlp = load_spacy(settings.SPACY_MODEL)
        nlp("Warm-up sentence for Dr. Ann Lee in Fresno on May 1, 2020.")
        freeze_loaded()  # as a worker does once its models are loaded (docs/speed.md)

        pairs = []
        ensemble_rss = 0.0
        for _ in range(max(1, repeat)):
            started, cpu = time.perf_counter(), time.process_time()
            result = ensemble.run(Document(hearing.text, hearing.metadata))
            ensemble_s = time.perf_counter() - started
            ensemble_cpu = time.process_time() - cpu
            ensemble_rss = ensemble_rss or peak_rss_mb()  # before any reference pass

            started, cpu = time.perf_counter(), time.process_time()
            nlp(hearing.text)
            pairs.append(
                (ensemble_s, time.perf_counter() - started, ensemble_cpu, time.process_time() - cpu)
            )
        ensemble_s, spacy_s, ensemble_cpu, spacy_cpu = (
            statistics.median(p[k] for p in pairs) for k in range(4)
        )
        ratios = [round(e / r, 3) for e, r, _, _ in pairs if r]

        report = {
            "words": len(hearing.text.split()),
            "ensemble_s": round(ensemble_s, 3),
            "spacy_sm_s": round(spacy_s, 3),
            "ratio": round(statistics.median(ratios), 3) if ratios else None,
            "peak_rss_mb": ensemble_rss,
            "spans": len(result.spans),
            # Beyond DESIGN.md's keys: CPU seconds (less sensitive to other processes),
            # per-detector seconds, the model threads and the load while measuring.
            "ratios": ratios,
            "ensemble_cpu_s": round(ensemble_cpu, 3),
            "spacy_sm_cpu_s": round(spacy_cpu, 3),
            "detector_s": result.seconds,
            "stage_s": result.stages,
            "threads": getattr(settings, "DETECTOR_THREADS", None),
            "load_avg": [round(x, 2) for x in os.getloadavg()]
            if hasattr(os, "getloadavg")
            else None,
        }
        if as_json:
            self.stdout.write(json.dumps(report))
        else:
            for key, value in report.items():
                self.stdout.write(f"{key}: {value}")
            self.stdout.write(f"per detector (s): {result.seconds}")
            if result.errors:
                self.stdout.write(f"failed detectors: {sorted(result.errors)}")
