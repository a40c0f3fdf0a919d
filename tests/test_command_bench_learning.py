"""``manage.py bench_learning``: the learning loop over generated hearings, on a tiny set."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from annotations.benchmarks.learning import curve_summary, hearing_figures
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
        "carried_on_gold": 0,
        "false_proposals": 1,
    }


def test_hearing_figures_count_carried_rejections_apart_from_the_suggestions_left():
    gold = {(0, 5, "PERSON"), (20, 24, "DATE")}
    suggested = [(0, 5, "PERSON"), (30, 33, "PERSON")]
    carried = [(40, 45, "PERSON"), (50, 52, "ORGANIZATION"), (20, 24, "DATE")]
    kept = [(0, 5, "PERSON"), (20, 24, "DATE")]  # the reviewer reversed the DATE
    figures = hearing_figures(suggested, gold, kept, carried)
    assert figures["false_suggestions"] == 1  # left for the reviewer: 30-33
    assert figures["false_proposals"] == 3  # 30-33 and the two right carried rejections
    assert figures["carried_on_gold"] == 1  # the DATE arrived rejected
    assert figures["missed_gold"] == 0  # the machine proposed it (the reviewer reverses it)
    assert figures["leaks"] == 0


def _row(hearing, family, false, leaks=0, proposals=None):
    return {
        "hearing": hearing, "family": family, "false_suggestions": false,
        "leaks_after_review": leaks, "false_proposals": false if proposals is None else proposals,
        "carried_rejections": 0 if proposals is None else proposals - false, "carried_on_gold": 0,
    }  # fmt: skip


def test_curve_summary_states_the_halving_after_ten_approvals_and_per_layout():
    families = ["bph", "federal", "appellate"]
    rows = [_row(i + 1, families[i % 3], false) for i, false in enumerate(
        [10, 20, 30, 8, 10, 12, 4, 9, 14, 6, 4, 2]
    )]  # fmt: skip
    summary = curve_summary(rows)
    assert summary["first_false_suggestions"] == 10
    assert summary["later_hearings"] == [11, 12]  # reviewed after 10 approvals
    assert summary["later_mean_false_suggestions"] == 3.0 and summary["ratio"] == 0.3
    bph = summary["per_family"]["bph"]
    assert (bph["first"], bph["later"], bph["later_mean"], bph["ratio"]) == (
        10,
        [8, 4, 6],
        6.0,
        0.6,
    )
    # later means 6, 7.67 (10, 9, 4), 9.33 (12, 14, 2): 23 against 60 first
    assert summary["per_family_ratio"] == 0.38
    assert summary["halved"] == ["appellate", "federal"] and summary["not_halved"] == ["bph"]
    assert summary["goal_met"] is True


def test_curve_summary_is_not_met_when_leaks_rise_or_with_few_hearings():
    rows = [_row(1, "bph", 10), _row(2, "federal", 8), _row(3, "bph", 2, leaks=1)]
    summary = curve_summary(rows)
    assert summary["later_hearings"] == [3]  # fewer than 10: the last third
    assert summary["ratio"] == 0.2 and summary["per_family"]["bph"]["ratio"] == 0.2
    assert summary["leaks_after_review_later_mean"] == 1.0
    assert summary["goal_met"] is False  # a leak after review where the first had none


def test_curve_summary_counts_per_layout_the_false_suggestions_left_as_proposals():
    rows = [_row(1, "bph", 10), _row(2, "federal", 8), _row(3, "bph", 9), _row(4, "federal", 6)]
    rows[2]["false_possible_misses"] = 6  # the keep model showed 6 of hearing 3's 9 apart
    rows[3]["false_possible_misses"] = 4
    summary = curve_summary(rows)
    bph = summary["per_family"]["bph"]
    assert (bph["first_false_suggested"], bph["later_false_suggested"]) == (10, [3])
    assert summary["per_family_ratio"] == 0.83  # 15 against 18, possible misses counted
    assert summary["per_family_ratio_without_possible_misses"] == 0.28  # 5 against 18
    assert summary["halved_as_proposals"] == ["bph", "federal"]
    assert summary["proposals_goal_met"] is True
    rows[3]["missed_gold"] = 3  # a miss more in a later hearing: not met
    assert curve_summary(rows)["proposals_goal_met"] is False


def test_curve_summary_is_not_met_without_halving():
    rows = [_row(1, "bph", 4), *(_row(i, "federal", 3) for i in range(2, 13))]
    summary = curve_summary(rows)
    assert summary["ratio"] == 0.75 and summary["goal_met"] is False


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
                added=3, carried_rejections=2 * (i - 1), leaks_after_review=0, annotate_s=1.0,
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
    assert 'data-series="carried rejections" data-x="3" data-value="4"' in points
    assert points.count('class="marker"') == 1 and "retrained after hearing 2" in points
    goal = html.split('id="learning-curve-goal">')[1].split("</p>")[0]
    assert "the first hearing 12, hearings 3–3 4.0 on average (ratio 0.33)" in goal
    assert "6 mentions arrived rejected by a carried decision" in goal
    # bph alone: 12 → (9, 4), mean 6.5, ratio 0.54 per layout
    assert "12 → 6.5 (0.54)" in goal and "not halved: bph" in goal
    assert goal.endswith("no rise in leaks after review): met.")
    assert '<tr data-row="2">' in html and "30 s · activated" in html
