"""The activation gate (``engine.learning.gate``): a candidate replaces the active model
only when better beyond the figure's noise (bootstrap over documents), on enough gold;
a tie keeps the active model."""

import pytest

from engine.gold import GoldDoc, GoldSpan
from engine.learning.gate import DocCounts, GateRule, doc_counts, gate_decide

RULE = GateRule(min_mentions=50)


def _docs(group: str, rows: list[tuple[int, int, int]]) -> list[DocCounts]:
    return [DocCounts(f"{group}-{i}", group, tp, fp, fn) for i, (tp, fp, fn) in enumerate(rows)]


def test_a_tie_keeps_the_active_model():
    same = _docs("generated", [(90, 5, 10), (80, 2, 20), (95, 1, 5)])
    decision = gate_decide(same, same, rule=RULE)
    assert not decision.activate and "tie keeps the active model" in decision.reason
    assert decision.difference == 0 and decision.low == 0 and decision.high == 0


def test_better_on_every_document_activates_and_reports_its_sizes():
    active = _docs("generated", [(80, 5, 20), (70, 5, 30), (85, 5, 15), (75, 5, 25)])
    candidate = _docs("generated", [(90, 3, 10), (80, 3, 20), (92, 3, 8), (85, 3, 15)])
    decision = gate_decide(candidate, active, rule=RULE)
    assert decision.activate and decision.low > 0, decision.reason
    assert decision.documents == 4 and decision.mentions == 400
    assert decision.groups["generated"]["active_f1"] < decision.groups["generated"]["candidate_f1"]
    assert "4 documents, 400 mentions" in decision.reason


def test_better_overall_but_within_the_noise_keeps_the_active_model():
    # better on one document, worse on another: the mean moves, the interval spans 0
    active = _docs("generated", [(80, 5, 20), (80, 5, 20), (80, 5, 20), (80, 5, 20)])
    candidate = _docs("generated", [(99, 1, 1), (70, 12, 30), (81, 5, 19), (80, 5, 20)])
    decision = gate_decide(candidate, active, rule=RULE)
    assert decision.difference > 0 and decision.low < 0
    assert not decision.activate and "not better beyond the noise" in decision.reason


def test_too_few_held_out_mentions_decide_nothing():
    active = _docs("approved", [(5, 1, 5)])
    candidate = _docs("approved", [(10, 0, 0)])
    decision = gate_decide(candidate, active, rule=RULE)
    assert not decision.activate and "too little held-out gold" in decision.reason


def test_worse_on_one_group_keeps_the_active_model_whatever_the_pooled_figure():
    active = _docs("generated", [(80, 5, 20)] * 4) + _docs("approved", [(8, 1, 2)])
    candidate = _docs("generated", [(95, 1, 5)] * 4) + _docs("approved", [(5, 3, 5)])
    decision = gate_decide(candidate, active, rule=RULE)
    assert not decision.activate and "worse on the approved gold" in decision.reason


def test_the_bootstrap_is_the_same_every_time():
    active = _docs("generated", [(80, 5, 20), (70, 5, 30), (85, 5, 15), (75, 9, 25)])
    candidate = _docs("generated", [(82, 3, 18), (69, 3, 31), (88, 3, 12), (80, 3, 20)])
    first = gate_decide(candidate, active, rule=RULE)
    assert gate_decide(candidate, active, rule=RULE).as_dict() == first.as_dict()


def test_both_models_must_be_counted_on_the_same_documents():
    with pytest.raises(ValueError, match="same gate documents"):
        gate_decide(_docs("a", [(1, 0, 0)]), _docs("b", [(1, 0, 0)]), rule=RULE)


def test_counts_come_from_the_exact_scoring_of_each_document():
    doc = GoldDoc("d", "Ann met Bo.", [GoldSpan(0, 3, "PERSON"), GoldSpan(8, 10, "PERSON")])

    class Found:
        start, end, label = 0, 3, "PERSON"

    class Wrong:
        start, end, label = 4, 7, "PERSON"

    (counts,) = doc_counts([doc], {"d": [Found(), Wrong()]}, group="approved")
    assert (counts.tp, counts.fp, counts.fn, counts.mentions) == (1, 1, 1, 2)
