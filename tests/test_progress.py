"""One progress type: fractions, percentages and a sub-task's share of the whole."""

from engine.progress import Progress, part


def test_progress_gives_a_bounded_fraction_and_percent():
    assert Progress(3, 4, "three of four").percent == 75
    assert Progress(5, 4).fraction == 1.0 and Progress(0, 0).fraction == 1.0


def test_part_maps_a_subtask_into_its_share_and_keeps_message_and_detail():
    seen = []
    report = part(seen.append, 0.40, 0.95)
    report(Progress(1, 2, "Detection 1/2", {"n": 1}))
    report(Progress(2, 2, "Detection 2/2"))
    assert [p.percent for p in seen] == [67, 95]
    assert seen[0].message == "Detection 1/2" and seen[0].detail == {"n": 1}
    assert part(None, 0, 1) is None
