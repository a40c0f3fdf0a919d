"""``bench_annotate``: the ensemble against one spaCy pass, one pair or the median of N."""

import gc
import json
from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_repeat_reports_every_pairs_ratio_and_their_median():
    out = StringIO()
    try:
        call_command(
            "bench_annotate", "--words", "800", "--detectors", "cover", "--repeat", "3",
            "--json", stdout=out,
        )  # fmt: skip
    finally:
        gc.unfreeze()  # the command freezes the loaded models as a worker does
    report = json.loads(out.getvalue())
    assert len(report["ratios"]) == 3
    assert report["ratio"] == sorted(report["ratios"])[1]
    assert report["ensemble_s"] > 0 and report["spacy_sm_s"] > 0 and report["peak_rss_mb"] > 0
