"""``bench_review --session``: the machine's mistakes it plants, the keystroke-level
model, and the oracle's run to Submit in Chromium on a short hearing."""

import pytest

from annotations.benchmarks.review_session import (
    Inputs,
    build_session_transcript,
    plan_fixes,
    run_oracle,
)
from annotations.models import Span
from transcripts.models import Transcript


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.mark.django_db
@pytest.mark.parametrize("layout", ["bph", "grand_jury"])
def test_the_session_hearing_plants_each_kind_of_machine_mistake(annotator, layout):
    # grand_jury: bench_review --session --layout (a Q/A transcript).
    transcript, plan = build_session_transcript(
        seed=7, words=3000, assignees=[annotator], layout=layout
    )
    spans = {s.pk: s for s in Span.objects.filter(transcript=transcript)}
    assert plan.false_positives and all(i in spans for i in plan.false_positives)
    gold_extents = {(s, e) for s, e, _l in plan.gold}
    for i in plan.false_positives:  # no false positive touches a gold mention
        s = spans[i]
        assert not any(a < s.end and b > s.start for a, b in gold_extents)
    assert len(plan.relabel) == 2
    for i, label in plan.relabel.items():
        assert spans[i].label != label and (spans[i].start, spans[i].end, label) in plan.gold
    [grow] = plan.grow_left
    assert not any((spans[grow].start, spans[grow].end) == g for g in gold_extents)
    [(start, end, _label)] = plan.missed
    assert not any(s.start < end and s.end > start for s in spans.values())
    right = len(spans) - len(plan.false_positives) - len(plan.relabel) - 1
    assert right / len(spans) > 0.95


def test_the_keystroke_level_model_charges_a_mental_step_per_decision_only():
    inputs = Inputs()
    inputs.add("click", forced=True)  # P+B
    inputs.add("key", forced=False)  # H + K + M
    inputs.add("key", forced=False)  # K + M
    assert inputs.human_seconds() == pytest.approx(1.3 + 0.4 + 0.28 + 1.35 + 0.28 + 1.35)
    assert inputs.by_kind() == {"click": 1, "key": 2}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_oracle_reviews_a_short_hearing_to_submit_with_no_leak(
    login_page, live_server, annotator, artifacts_dir
):
    from annotations.benchmarks.review_session import _release_errors

    transcript, plan = build_session_transcript(seed=3, words=2000, assignees=[annotator])
    fixes = plan_fixes(transcript, plan)
    inputs = Inputs()
    page = login_page(annotator)
    page.set_default_timeout(60_000)
    from django.urls import reverse

    page.goto(live_server.url + reverse("annotations:review-forms", args=[transcript.pk]))
    page.wait_for_selector("#forms-page[data-ready='1']")
    page.keyboard.press("j")
    page.keyboard.press("o")  # every occurrence of the focused form
    for width, height in ((1440, 900), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(artifacts_dir / f"review-forms-hearing-{width}x{height}.png"))
    page.set_viewport_size({"width": 1400, "height": 900})
    run_oracle(page, live_server.url, transcript.pk, plan, fixes, inputs)
    transcript.refresh_from_db()
    assert transcript.state == Transcript.State.SUBMITTED
    assert _release_errors(transcript, plan) == (0, 0)
    forced = sum(1 for _k, f in inputs.items if f)
    kinds = inputs.by_kind()
    # a relabel the table proposed (a dissent, the words' rule) is one decision there
    focus = [what for what in inputs.forced_for if what.startswith("click: focus to ")]
    assert len(focus) <= len(plan.relabel) + len(plan.grow_left)
    assert len(inputs.forced_for) == forced
    assert forced == len(focus) + kinds.get("click-confirm", 0) + kinds.get("click-resubmit", 0)
    assert len(inputs.items) <= 40
