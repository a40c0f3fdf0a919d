"""``manage.py bench_learning``: the learning loop over generated hearings, on a tiny set."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from annotations.benchmarks.learning import hearing_figures
from annotations.models import TrainedModel
from transcripts.models import Job, Transcript

LIGHT = [
    {"NAME": "engine.detectors.patterns.PatternDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.cover.CoverPageDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}},
]


def test_hearing_figures_count_false_missed_and_leaked_mentions():
    gold = {(0, 5, "PERSON"), (10, 15, "LOCATION"), (20, 24, "DATE")}
    suggested = [(0, 5, "PERSON"), (11, 15, "LOCATION"), (30, 33, "PERSON"), (20, 24, "TIME")]
    kept = [(0, 5, "PERSON"), (10, 15, "LOCATION")]
    assert hearing_figures(suggested, gold, kept) == {
        "false_suggestions": 1,  # 30-33 overlaps no gold (11-15 is a boundary error)
        "missed_gold": 1,  # the DATE: only a TIME overlaps it
        "leaks": 1,  # the DATE is not covered by a kept span
    }


@pytest.mark.slow
def test_bench_learning_runs_the_loop_on_a_tiny_set_and_leaves_the_database_as_it_was(db, settings):
    pytest.importorskip("engine.learning.domain")
    settings.DETECTORS = LIGHT
    out = io.StringIO()
    call_command(
        "bench_learning",
        "--n", "2", "--retrain-every", "2", "--words", "500", "--families", "bph",
        "--train-seconds", "20", "--recipe-seeds", "7001,7002", "--recipe-words", "400",
        "--json", "--save",
        stdout=out,
    )  # fmt: skip
    result = json.loads(out.getvalue())
    rows = result["hearings"]
    assert [r["hearing"] for r in rows] == [1, 2] and result["retrain_every"] == 2
    for r in rows:
        assert r["gold"] > 0 and r["suggestions"] >= r["false_suggestions"] >= 0
        assert r["reviewer_inputs"] >= r["rejected"] + r["added"]
        assert r["leaks_after_review"] == 0  # the oracle added every missed mention
    assert rows[0]["training_s"] is None and rows[1]["training_s"] > 0
    assert rows[1]["decision"]
    # Nothing of the run stays but the saved curve.
    assert not Transcript.objects.exists() and not TrainedModel.objects.exists()
    job = Job.objects.get()
    assert job.result["kind"] == "bench_learning" and job.result["hearings"] == rows


def test_bench_learning_refuses_an_unknown_layout(db):
    with pytest.raises(CommandError, match="Unknown layout nope"):
        call_command("bench_learning", "--families", "nope")


def test_the_measurements_page_draws_the_saved_learning_curve(client, lead):
    from django.urls import reverse

    from annotations.benchmarks.learning import HearingRow, LearningCurve, save

    curve = LearningCurve(n=3, retrain_every=2, words=500, seed=9100, families=["bph"])
    for i, false in enumerate((12, 9, 4), start=1):
        curve.rows.append(
            HearingRow(
                hearing=i, family="bph", seed=9099 + i, words=500, gold=40, suggestions=45,
                false_suggestions=false, missed_gold=3, reviewer_inputs=false + 3, rejected=false,
                added=3, carried_rejections=0, leaks_after_review=0, annotate_s=1.0,
                training_s=30.0 if i == 2 else None, activated=True if i == 2 else None,
                decision="Activated: F1 0.900 against 0.800" if i == 2 else "",
            )
        )  # fmt: skip
    save(curve.as_dict())
    client.force_login(lead)
    html = client.get(reverse("annotations:dashboard")).content.decode()
    assert 'id="chart-learning-curve"' in html and "<svg" in html
    points = html.split('id="chart-learning-curve"')[1]
    for hearing, value in ((1, 12), (2, 9), (3, 4)):
        assert f'data-series="false suggestions" data-x="{hearing}" data-value="{value}"' in points
    assert points.count('class="marker"') == 1 and "retrained after hearing 2" in points
    assert '<tr data-row="2">' in html and "30 s · activated" in html
