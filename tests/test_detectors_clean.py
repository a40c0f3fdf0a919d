"""Cleaning (engine/detectors/clean.py): the decision table decides the recorded members'
finds of one generated hearing per layout family as they were decided when recorded
(tests/detection_replay.py; tests/data/detection_outcomes.json)."""

import json

import pytest

from tests.detection_replay import DATA, outcomes, replay

_DATA = json.loads(DATA.read_text())


@pytest.mark.parametrize("hearing", _DATA["hearings"], ids=[h["id"] for h in _DATA["hearings"]])
def test_the_recorded_finds_reach_the_recorded_spans_and_decisions(hearing):
    got = outcomes(replay(hearing, _DATA["allow_list"]))
    assert got["spans"] == hearing["expected"]["spans"]
    assert got["decisions"] == hearing["expected"]["decisions"]
