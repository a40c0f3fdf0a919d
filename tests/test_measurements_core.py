"""Hand-computed cases for the Django-free measurement core."""

from datetime import date, datetime, timedelta

import pytest

from engine.measurements import plots, tables
from engine.measurements.agreement import (
    agreement,
    cohen_kappa,
    krippendorff_alpha,
    token_labels,
)
from engine.measurements.corpus import corpus_statistics
from engine.measurements.effort import (
    ReviewRecord,
    actions_per_day,
    effort_summary,
    review_seconds,
)
from engine.spans import Prediction


def sp(start, end, label, entity=None):
    return Prediction(start, end, label, entity=entity)


def test_cohen_kappa_on_a_hand_computed_case():
    # po = 3/4; pe = .5*.25 + .5*.75 = .5; kappa = (.75-.5)/.5 = .5
    assert cohen_kappa(["A", "A", "O", "O"], ["A", "O", "O", "O"]) == pytest.approx(0.5)
    assert cohen_kappa(["A", "O"], ["A", "O"]) == pytest.approx(1.0)
    assert cohen_kappa(["O", "O"], ["O", "O"]) is None  # undefined: one category only


def test_krippendorff_alpha_on_a_hand_computed_case():
    # Coincidences: o_AA=2, o_AO=o_OA=1, o_OO=4; n_A=3, n_O=5, n=8.
    # D_o = 2/8; D_e = 2*3*5/(8*7) = 30/56; alpha = 1 - (2/8)/(30/56) = 1 - 7/15 = 8/15
    assert krippendorff_alpha(["A", "A", "O", "O"], ["A", "O", "O", "O"]) == pytest.approx(8 / 15)
    assert krippendorff_alpha(["O"], ["O"]) is None


def test_token_labels_take_the_longest_overlap():
    text = "Ann Lee went to Fresno."
    labels = token_labels(text, [sp(0, 7, "PERSON"), sp(16, 22, "LOCATION")])
    assert labels == ["PERSON", "PERSON", "O", "O", "LOCATION", "O"]


def test_agreement_between_two_annotators():
    text = "Ann Lee went to Fresno in 1990."
    # tokens: Ann Lee went to Fresno in 1990 .   (8)
    a = [sp(0, 3, "PERSON"), sp(4, 7, "PERSON"), sp(16, 22, "LOCATION"), sp(26, 30, "DATE")]
    b = [sp(0, 3, "PERSON"), sp(4, 7, "PERSON"), sp(16, 22, "ORGANIZATION")]
    result = agreement([(text, a, b)])
    assert result["tokens"] == 8 and result["documents"] == 1
    assert result["observed"] == pytest.approx(6 / 8)
    # pe = (2*2 [PERSON] + 4*5 [O]) / 64 = 24/64; kappa = (48/64 - 24/64) / (40/64) = 0.6
    assert result["kappa"] == pytest.approx(0.6)
    assert result["alpha"] is not None and 0 < result["alpha"] < result["kappa"] + 0.1
    assert result["span"]["tp"] == 2 and result["span"]["fn"] == 2 and result["span"]["fp"] == 1
    assert result["span"]["f1"] == pytest.approx(2 * 2 / (2 * 2 + 2 + 1))
    assert result["labels"]["PERSON"]["kappa"] == pytest.approx(1.0)
    assert result["labels"]["PERSON"]["span"]["f1"] == pytest.approx(1.0)
    # LOCATION: a has 1 token, b none: po = 7/8, pe = (1/8*0 + 7/8*1) = 7/8 → kappa 0
    assert result["labels"]["LOCATION"]["kappa"] == pytest.approx(0.0)
    assert result["labels"]["DATE"]["span"]["fn"] == 1
    assert list(result["labels"]) == ["PERSON", "LOCATION", "ORGANIZATION", "DATE"]


def test_corpus_statistics_per_label_transcript_and_thousand_tokens():
    docs = [
        (
            1,
            "Ann Lee went to Fresno.",
            [sp(0, 3, "PERSON", 1), sp(4, 7, "PERSON", 2), sp(16, 22, "LOCATION", 3)],
        ),
        (2, "Lee was born in 1990 .", [sp(0, 3, "PERSON", 9), sp(16, 20, "DATE", 10)]),
    ]
    stats = corpus_statistics(docs)
    # tokens: 6 + 6 = 12; entities: 5
    assert stats["tokens"] == 12 and stats["entities"] == 5 and stats["transcripts"] == 2
    assert stats["per_transcript"] == pytest.approx(2.5)
    assert stats["per_1000_tokens"] == pytest.approx(5000 / 12)
    person = stats["labels"]["PERSON"]
    assert person["count"] == 3 and person["groups"] == 3
    assert person["per_transcript"] == pytest.approx(1.5)
    assert person["per_1000_tokens"] == pytest.approx(250.0)
    assert person["share"] == pytest.approx(0.6)
    assert [d["entities"] for d in stats["documents"]] == [3, 2]


def test_review_seconds_sums_every_round_in_review():
    t0 = datetime(2026, 1, 1, 9, 0)
    transitions = [
        (t0, "ready", "in_review"),
        (t0 + timedelta(minutes=10), "in_review", "submitted"),
        (t0 + timedelta(minutes=20), "submitted", "returned"),
        (t0 + timedelta(minutes=30), "returned", "in_review"),
        (t0 + timedelta(minutes=35), "in_review", "submitted"),
    ]
    assert review_seconds(transitions) == 15 * 60
    assert review_seconds(transitions[:1]) == 0  # still open: not counted


def test_effort_summary_on_hand_computed_records():
    records = [
        ReviewRecord(
            1,
            tokens=1000,
            actions=30,
            suggestions=20,
            accepted_unchanged=15,
            added_by_label={"PERSON": 2},
            review_seconds=600,
        ),
        ReviewRecord(
            2,
            tokens=3000,
            actions=10,
            suggestions=20,
            accepted_unchanged=17,
            added_by_label={"PERSON": 1, "DATE": 4},
            review_seconds=0,
        ),
    ]
    e = effort_summary(records)
    assert e["actions_per_1000_tokens"] == pytest.approx(10.0)  # 40 / 4000 * 1000
    assert e["accepted_unchanged_share"] == pytest.approx(32 / 40)
    assert e["added_per_label"] == {"PERSON": 3, "DATE": 4} and e["added_total"] == 7
    assert e["review_seconds_mean"] == pytest.approx(600)  # transcripts never reviewed are left out
    assert e["per_transcript"][0]["actions_per_1000_tokens"] == pytest.approx(30.0)


def test_actions_per_day_fills_the_gaps():
    days = [datetime(2026, 1, 1, 9), datetime(2026, 1, 1, 17), date(2026, 1, 3)]
    assert actions_per_day(days) == [("2026-01-01", 2), ("2026-01-02", 0), ("2026-01-03", 1)]
    assert actions_per_day([]) == []


def test_plots_are_svg_with_escaped_labels_and_one_bar_per_value():
    svg = plots.bar_chart(
        [("PERSON", [0.9, 0.95]), ("<b>", [0.5, None])], series=("exact", "token"), title="F1"
    )
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "<b>" not in svg and "&lt;b&gt;" in svg
    assert svg.count("data-value=") == 3  # None draws no bar
    line = plots.line_chart([("2026-01-01", 3), ("2026-01-02", 0)], title="actions")
    assert line.count("<circle") == 2


def test_snapshot_tables_flatten_to_csv():
    snapshot = {
        "table3": {
            "overall": {
                "exact": {"p": 0.5, "r": 1.0, "f1": 2 / 3, "tp": 1, "fp": 1, "fn": 0},
                "token": {},
            },
            "labels": {
                "PERSON": {
                    "exact": {"p": 0.5, "r": 1.0, "f1": 2 / 3, "tp": 1, "fp": 1, "fn": 0},
                    "token": {},
                }
            },
        }
    }
    text = tables.to_csv(snapshot, "table3")
    lines = text.strip().split("\n")
    assert lines[0] == "label,level,p,r,f1,tp,fp,fn"
    assert lines[1] == "overall,exact,0.500000,1.000000,0.666667,1,1,0"
    assert lines[3].startswith("PERSON,exact,")
    for table in tables.TABLES:
        assert tables.to_csv({}, table).count("\n") >= 1


def test_decision_kind_tells_one_by_one_from_each_bulk_action():
    from engine.measurements.effort import decision_kind

    snapshots = {"spans": [{"id": 1}, {"id": 2}, {"id": 3}]}
    assert decision_kind("review.accept", {"spans": [{"id": 1}]}) == ("one_by_one", 1)
    assert decision_kind("review.resize", {}) == ("one_by_one", 1)
    assert decision_kind("review.accept_all", {**snapshots, "label": "DATE"}) == ("label", 3)
    assert decision_kind("review.accept_all", {**snapshots, "entity": "PERSON_2"}) == ("group", 3)
    for bulk in ("form", "group", "label", "page"):
        assert decision_kind("review.reject_all", {"bulk": bulk, "count": 1157}) == (bulk, 1157)
    assert decision_kind("review.scripted", {"accepted": 5, "rejected": 2, "added": 1}) == (
        "scripted",
        8,
    )
    assert decision_kind("review.apply_all", snapshots) == ("proposals", 0)
    assert decision_kind("review.merge", snapshots) == ("groups", 0)
    assert decision_kind("review.undo", snapshots) == ("undo", 0)


def test_one_bulk_accept_is_one_action_but_counts_every_span_it_decided():
    from engine.measurements.effort import decisions_by_kind

    rows = [("review.accept", {})] * 3 + [("review.accept_all", {"bulk": "label", "count": 1157})]
    d = decisions_by_kind(rows)
    assert d["one_by_one"] == {"actions": 3, "spans": 3}
    assert d["label"] == {"actions": 1, "spans": 1157}
    assert d["form"] == {"actions": 0, "spans": 0}
    record = ReviewRecord(
        transcript_id=1, tokens=1000, actions=4, suggestions=1160, accepted_unchanged=1160
    )
    record.decisions, record.active_seconds = d, 120.0
    e = effort_summary([record])
    assert e["spans_decided"] == 1160
    assert e["spans_one_by_one_share"] == pytest.approx(3 / 1160)
    row = e["per_transcript"][0]
    assert row["spans_decided"] == 1160 and row["spans_per_active_minute"] == pytest.approx(580)
    assert e["decisions"]["label"]["spans"] == 1157


def test_time_on_task_counts_gaps_up_to_the_idle_limit():
    from engine.measurements.effort import active_seconds

    t0 = datetime(2026, 1, 1, 9, 0, 0)
    moments = [t0 + timedelta(seconds=s) for s in (0, 30, 90, 90 + 3600, 90 + 3600 + 200)]
    assert active_seconds(moments) == pytest.approx(30 + 60 + 200)  # the hour is a break
    assert active_seconds(moments, idle=4000) == pytest.approx(90 + 3600 + 200)
    assert active_seconds([]) == 0.0


def test_fleiss_kappa_on_the_textbook_case():
    from engine.measurements.agreement import fleiss_kappa

    # Fleiss (1971) as worked in most textbooks: 10 items, 14 raters, 5 categories → 0.210
    counts = [
        [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
    ]  # fmt: skip
    rows = [[c for c, n in zip("abcde", row, strict=True) for _ in range(n)] for row in counts]
    assert fleiss_kappa(rows) == pytest.approx(0.2099, abs=1e-4)
    assert fleiss_kappa([["A", "A"], ["A", "A"]]) is None  # one category: undefined


def test_agreement_report_scores_whole_mentions_and_name_parts():
    from engine.measurements.agreement import agreement_report

    text = "Met Shannon Perry and Perry today."
    s, p2 = text.index("Shannon"), text.index("Perry", text.index("Perry") + 1)
    # A marks the whole name; B only its surname: name parts agree on 2 of 3.
    a = [sp(s, s + 7, "PERSON"), sp(s + 8, s + 13, "PERSON"), sp(p2, p2 + 5, "PERSON")]
    b = [sp(s + 8, s + 13, "PERSON"), sp(p2, p2 + 5, "PERSON")]
    r = agreement_report([(text, a, b)])
    assert r["mentions"] == "whole"
    assert (r["span"]["tp"], r["span"]["fn"], r["span"]["fp"]) == (1, 1, 1)  # whole mentions
    sp_parts = r["span_name_parts"]
    assert (sp_parts["tp"], sp_parts["fn"], sp_parts["fp"]) == (2, 1, 0)
    # 7 tokens, one differs (Shannon): two raters → Fleiss ≈ Cohen here
    assert r["fleiss_kappa"] == pytest.approx(r["kappa"], abs=0.05)
    assert r["references"][0]["value"] == 0.86 and "SweLL" in r["references"][0]["source"]
