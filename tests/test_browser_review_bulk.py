"""Deciding at the granularity of the decision, in Chromium, typed without waits (issue
21): a surface form in one input, a group or the rest of a page in one key, each undone
in one step; keyboard add and resize; a drag that starts on a highlighted word; a bulk
accept of a whole label; nothing typed is lost when the page is left."""

import re

import pytest
from django.urls import reverse

from annotations.benchmarks.review_transcript import build_review_transcript
from annotations.models import Span
from annotations.services.review import review_assign_entities
from anonreview.core.models import AuditEvent
from tests.conftest import BROWSER_TIMEOUT_MS
from tests.factories import make_transcript
from tests.test_browser_review_keys import current, idle, open_review
from tests.test_review_bulk import make_bulk_transcript

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def hearing(annotator):
    return build_review_transcript(seed=11, words=1200, max_spans=150, assignees=[annotator])


def um_transcript(annotator):
    """Twelve "Um" taken for a PERSON (three spellings), beside real names."""
    lines = []
    for i in range(12):
        um = ("Um", "um", "UM")[i % 3]
        who = "Darrow Kell" if i % 2 else "him"
        lines.append(f"WITNESS: {um}, I met {who} in Fresno on the {i + 2}th.")
    text = "\n".join(lines)
    transcript = make_transcript(text, assignees=[annotator])
    for word, label in (("Um", "PERSON"), ("um", "PERSON"), ("UM", "PERSON"),
                        ("Darrow", "PERSON"), ("Kell", "PERSON"), ("Fresno", "LOCATION")):  # fmt: skip
        for m in re.finditer(rf"\b{word}\b", text):
            Span.objects.create(transcript=transcript, start=m.start(), end=m.end(), label=label)
    review_assign_entities(transcript=transcript)
    return transcript


def forms_idle(page):
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request') && !window.__formsBusy()"
    )


def until(condition) -> None:
    """Wait until ``condition()`` holds (the server's own database, polled), at most the
    browser tests' limit (tests/conftest.py)."""
    import time

    deadline = time.monotonic() + BROWSER_TIMEOUT_MS / 1000
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.2)


def statuses(transcript, word):
    text = transcript.text
    return [
        s.status
        for s in Span.objects.filter(transcript=transcript).order_by("start")
        if text[s.start : s.end].casefold() == word.casefold()
    ]


def test_one_key_rejects_all_twelve_mentions_of_a_surface_form_and_u_brings_them_back(
    login_page, live_server, annotator, artifacts_dir
):
    transcript = um_transcript(annotator)
    page = login_page(annotator)
    page.goto(live_server.url + reverse("annotations:review-forms", args=[transcript.pk]))
    page.wait_for_selector("#forms-page[data-ready='1']")
    assert page.get_attribute("li.fm-row.current", "data-form") == "um"  # most mentions first
    page.keyboard.press("o")  # every occurrence, loaded on opening
    page.wait_for_function(
        "() => document.querySelectorAll('li.fm-row.current .fm-occ li').length === 12"
    )
    page.screenshot(path=str(artifacts_dir / "review-forms-occurrences-1280x720.png"))
    page.keyboard.press("o")
    page.keyboard.press("x")  # the one input
    forms_idle(page)
    assert statuses(transcript, "um") == ["rejected"] * 12
    assert set(statuses(transcript, "darrow")) == {"suggested"}
    assert AuditEvent.objects.filter(event_type="review.reject_form").count() == 1
    assert "st-rejected" in page.get_attribute("li.fm-row[data-form=um]", "class")
    assert page.locator("#toast [data-toast-undo]").is_visible()
    # the focus moved on to the next open form
    assert page.get_attribute("li.fm-row.current", "data-form") != "um"
    for width, height in ((1440, 900), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(artifacts_dir / f"review-forms-{width}x{height}.png"))
    page.keyboard.press("u")
    forms_idle(page)
    assert statuses(transcript, "um") == ["suggested"] * 12
    # A accepts the rest of the label and moves on to the next label with open mentions;
    # u there undoes the whole label in one step
    page.keyboard.press("A")
    page.wait_for_url("**label=LOCATION")
    page.wait_for_selector("#forms-page[data-ready='1']")
    assert set(statuses(transcript, "um")) == {"accepted"}
    assert set(statuses(transcript, "fresno")) == {"suggested"}  # another label
    page.keyboard.press("u")
    forms_idle(page)
    assert set(statuses(transcript, "um")) == {"suggested"}


def test_a_key_typed_after_a_labels_last_decision_answers_keeps_the_table_on_that_label(
    login_page, live_server, annotator
):
    # The table moved on to the next label as soon as the last decision's answer came: an
    # undo typed a moment later reached the next label's page (and undid there, or got lost
    # in the navigation). Found as a flaky r-u-r test under CI's load.
    transcript = um_transcript(annotator)
    page = login_page(annotator)
    url = reverse("annotations:review-forms", args=[transcript.pk]) + "?label=LOCATION"
    page.goto(live_server.url + url)
    page.wait_for_selector("#forms-page[data-ready='1']")
    page.keyboard.press("a")  # Fresno, the label's only form: LOCATION is decided
    forms_idle(page)  # the answer is in; the table is about to move on
    assert page.get_attribute("#forms-page", "data-moving-on") == "PERSON"
    page.keyboard.press("u")  # a moment later: stays, and undoes here
    forms_idle(page)
    assert set(statuses(transcript, "Fresno")) == {"suggested"}
    page.wait_for_timeout(1000)  # longer than the move's delay: nothing moves
    assert "label=LOCATION" in page.url
    assert page.get_attribute("#forms-page", "data-moving-on") is None
    page.keyboard.press("a")  # decided again, and left alone: on to PERSON
    page.wait_for_url(lambda u: "label=PERSON" in u)
    assert set(statuses(transcript, "Fresno")) == {"accepted"}


def test_r_relabels_a_form_as_a_detector_proposed_and_a_digit_key_as_that_label(
    login_page, live_server, annotator, artifacts_dir
):
    transcript = um_transcript(annotator)
    # "met him in Fresno" taken for a body; a detector (and the rules) read the town
    for span in Span.objects.filter(transcript=transcript, label="LOCATION"):
        span.label = "ORGANIZATION"
        span.provenance = [
            {"detector": "spacy", "score": 0.7},
            {"detector": "presidio", "score": 0.6, "label": "LOCATION"},
        ]
        span.save(update_fields=["label", "provenance"])
    page = login_page(annotator)
    url = reverse("annotations:review-forms", args=[transcript.pk]) + "?label=ORGANIZATION"
    page.goto(live_server.url + url)
    page.wait_for_selector("#forms-page[data-ready='1']")
    assert page.get_attribute("li.fm-row.current", "data-alternative") == "LOCATION"
    for width, height in ((1440, 900), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(artifacts_dir / f"review-forms-relabel-{width}x{height}.png"))
    page.keyboard.press("r")  # one input: every Fresno becomes a LOCATION
    page.keyboard.press("u")  # typed at once: undone in one step, in order
    page.keyboard.press("r")
    forms_idle(page)
    fresno = Span.objects.filter(transcript=transcript, label="LOCATION")
    assert fresno.count() == 12 and {s.status for s in fresno} == {"accepted"}
    assert not Span.objects.filter(transcript=transcript, label="ORGANIZATION").exists()
    assert AuditEvent.objects.filter(event_type="review.relabel_form").count() == 2
    assert AuditEvent.objects.filter(event_type="review.undo").count() == 1
    # the row left the ORGANIZATION table; the label is decided, so the table moved on
    page.wait_for_url(lambda u: "label=ORGANIZATION" not in u)
    # a digit relabels the focused form as that label (4: CDCR_ID, 1: PERSON, ...)
    page.goto(
        live_server.url
        + reverse("annotations:review-forms", args=[transcript.pk])
        + "?label=PERSON"
    )
    page.wait_for_selector("#forms-page[data-ready='1']")
    page.locator("li.fm-row[data-form=darrow]").click()
    page.keyboard.press("5")  # LOCATION
    forms_idle(page)
    assert {
        s.label
        for s in Span.objects.filter(transcript=transcript)
        if transcript.text[s.start : s.end] == "Darrow"
    } == {"LOCATION"}


def test_a_relabelled_form_stays_as_moved_and_its_undo_redraws_it_in_place(
    login_page, live_server, annotator
):
    transcript = um_transcript(annotator)
    Span.objects.create(transcript=transcript, start=0, end=7, label="LOCATION")  # WITNESS
    review_assign_entities(transcript=transcript)
    page = login_page(annotator)
    url = reverse("annotations:review-forms", args=[transcript.pk]) + "?label=LOCATION"
    page.goto(live_server.url + url)
    page.wait_for_selector("#forms-page[data-ready='1']")
    row = "li.fm-row[data-form=fresno]"
    page.keyboard.press("5")  # LOCATION is its own label: nothing happens
    page.keyboard.press("6")  # ORGANIZATION; the focus moves on to "WITNESS"
    forms_idle(page)
    moved = page.inner_text(row)
    assert "moved to ORGANIZATION" in moved and "Fresno" in moved  # still there, as written
    assert page.locator(f"{row} .fm-more").count() == 0  # nothing left to open
    assert page.locator("#tab-ORGANIZATION").count() == 1  # its new label has a tab now
    assert page.get_attribute("li.fm-row.current", "data-form") == "witness"
    page.keyboard.press("u")
    forms_idle(page)
    assert "12 open" in page.inner_text(row)  # undone in place
    assert set(statuses(transcript, "fresno")) == {"suggested"}


def test_accepting_the_rest_asks_first_above_the_threshold_until_every_form_was_on_screen(
    login_page, live_server, annotator, settings
):
    from annotations.services.review import bulk

    transcript = build_review_transcript(seed=5, words=6000, max_spans=None, assignees=[annotator])
    person = Span.objects.filter(transcript=transcript, label="PERSON").count()
    assert person > bulk.CONFIRM_ABOVE
    page = login_page(annotator)
    page.set_viewport_size({"width": 1280, "height": 720})
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    url = reverse("annotations:review-forms", args=[transcript.pk]) + "?label=PERSON"
    page.goto(live_server.url + url)
    page.wait_for_selector("#forms-page[data-ready='1']")
    assert page.get_attribute("#forms-page", "data-seen-end") is None  # a long list
    page.keyboard.press("A")
    assert asked and f"Accept all {person}" in asked[0]  # dismissed: nothing decided
    assert (
        not Span.objects.filter(transcript=transcript, label="PERSON")
        .exclude(status="suggested")
        .exists()
    )
    page.mouse.wheel(0, 200_000)  # read to the end
    page.wait_for_selector("#forms-page[data-seen-end='1']")
    page.keyboard.press("A")
    page.wait_for_url(lambda u: "label=PERSON" not in u)
    assert len(asked) == 1
    assert set(
        Span.objects.filter(transcript=transcript, label="PERSON").values_list("status", flat=True)
    ) == {"accepted"}


def _group_of(page, min_size=2):
    """A PERSON group with several undecided mentions in the loaded window: its ref and
    the id of its first mark."""
    return page.evaluate(
        """(n) => { const by = new Map();
        for (const m of document.querySelectorAll('#original mark[data-status=suggested][data-ref]')) {
          if (!by.has(m.dataset.ref)) by.set(m.dataset.ref, []);
          by.get(m.dataset.ref).push(m.dataset.spanId); }
        for (const [ref, ids] of by) if (ids.length >= n) return [ref, ids[0]];
        return null; }""",
        min_size,
    )


def test_group_accept_and_reject_keys_move_on_and_each_undoes_in_one_step(
    login_page, live_server, annotator, hearing, artifacts_dir
):
    page = open_review(login_page(annotator), live_server, hearing)
    ref, first = _group_of(page)
    page.locator(f"#s-{first}").click()
    idle(page)
    page.wait_for_selector(f"#inspector[data-focus='{first}'] [data-reject-all-ref]")
    for width, height in ((1440, 900), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(artifacts_dir / f"review-bulk-{width}x{height}.png"))
    page.set_viewport_size({"width": 1400, "height": 900})
    page.keyboard.press("A")  # accept every mention of the group, move on like a
    idle(page)
    group = Span.objects.filter(transcript=hearing, entity__ref=ref)
    assert set(group.values_list("status", flat=True)) == {"accepted"}
    assert page.get_attribute(f"#s-{current(page)}", "data-ref") != ref
    event = AuditEvent.objects.filter(event_type="review.accept_all").latest("id")
    assert event.after["bulk"] == "group" and event.after["count"] == group.count()
    page.keyboard.press("u")
    idle(page)
    assert set(group.values_list("status", flat=True)) == {"suggested"}
    assert page.locator(f"#original mark[data-ref='{ref}'][data-status=accepted]").count() == 0
    page.locator(f"#s-{first}").click()
    page.keyboard.press("X")
    idle(page)
    assert set(group.values_list("status", flat=True)) == {"rejected"}
    page.keyboard.press("u")
    idle(page)
    assert set(group.values_list("status", flat=True)) == {"suggested"}


def test_p_accepts_the_rest_of_the_page_after_one_rejection_and_undo_restores_it(
    login_page, live_server, annotator, hearing
):
    page = open_review(login_page(annotator), live_server, hearing, auto_advance=False)
    page.keyboard.press("j")
    first = current(page)
    page_no = int(
        page.evaluate(f"() => document.getElementById('s-{first}').closest('.utt').dataset.page")
    )
    page.keyboard.press("x")
    page.keyboard.press("P")
    idle(page)
    on_page = page.evaluate(
        f"() => Array.from(document.querySelectorAll('.utt[data-page=\"{page_no}\"] mark')).map(m => Number(m.dataset.spanId))"
    )
    got = dict(Span.objects.filter(pk__in=on_page).values_list("pk", "status"))
    assert got.pop(int(first)) == "rejected"
    assert set(got.values()) == {"accepted"}
    assert (
        not Span.objects.filter(transcript=hearing, status="accepted")
        .exclude(pk__in=on_page)
        .exists()
    )
    assert page.locator(f"#mm-{page_no}").inner_text().strip() == ""  # no undecided left
    page.keyboard.press("u")
    idle(page)
    assert not Span.objects.filter(transcript=hearing, status="accepted").exists()
    assert Span.objects.get(pk=first).status == "rejected"  # the x before stays


def test_shift_arrows_select_words_after_the_focus_and_a_label_key_adds_them(
    login_page, live_server, annotator
):
    text = "WITNESS: I met Darrow at the Fresno county fair grounds yesterday."
    transcript = make_transcript(text, assignees=[annotator])
    start = text.index("Darrow")
    Span.objects.create(transcript=transcript, start=start, end=start + 6, label="PERSON")
    review_assign_entities(transcript=transcript)
    page = open_review(login_page(annotator), live_server, transcript, auto_advance=False)
    page.keyboard.press("j")
    page.keyboard.press("Shift+ArrowRight")  # "at"
    page.keyboard.press("Shift+ArrowRight")  # "at the"
    page.keyboard.press("Shift+ArrowRight")  # "at the Fresno"
    page.keyboard.press("Shift+ArrowLeft")  # "at the"
    page.keyboard.press("Shift+ArrowLeft")  # "at"
    # from the focused span forward: the selection is anchored on the word after it
    page.wait_for_selector("#add-popover:not([hidden])")
    assert page.inner_text("#add-popover .sel-text") == "at"
    page.keyboard.press("Escape")
    page.keyboard.press("j")  # nothing else to go to: the focus stays on Darrow
    for _ in range(4):
        page.keyboard.press("Shift+ArrowRight")  # at the Fresno county
    page.keyboard.press("Shift+ArrowLeft")  # at the Fresno
    page.keyboard.press("5")  # LOCATION
    idle(page)
    added = Span.objects.get(transcript=transcript, label="LOCATION")
    assert text[added.start : added.end] == "at the Fresno"
    # every label is on a key shown on screen: "n" is NRP, the 14th
    assert page.locator(".rv-keys .keylab[title='n: NRP']").count() == 1


def test_bracket_keys_grow_and_shrink_the_focused_span_by_a_word(
    login_page, live_server, annotator
):
    text = "WITNESS: We drove to Santa Rosa Beach that summer."
    transcript = make_transcript(text, assignees=[annotator])
    start = text.index("Rosa")
    Span.objects.create(transcript=transcript, start=start, end=start + 4, label="LOCATION")
    review_assign_entities(transcript=transcript)
    page = open_review(login_page(annotator), live_server, transcript, auto_advance=False)
    page.keyboard.press("j")
    page.keyboard.press("[")  # Santa Rosa
    page.keyboard.press("]")  # Santa Rosa Beach
    page.keyboard.press("]")  # Santa Rosa Beach that
    page.keyboard.press("}")  # Santa Rosa Beach
    idle(page)
    span = Span.objects.get(transcript=transcript)
    assert text[span.start : span.end] == "Santa Rosa Beach"
    page.keyboard.press("{")  # Rosa Beach
    idle(page)
    span.refresh_from_db()
    assert text[span.start : span.end] == "Rosa Beach"
    assert current(page) == str(span.pk)


def test_a_drag_that_starts_on_a_highlighted_word_selects_text_to_add(
    login_page, live_server, annotator
):
    text = "WITNESS: I met Darrow Kell near the old mill yesterday."
    transcript = make_transcript(text, assignees=[annotator])
    start = text.index("Darrow")
    Span.objects.create(transcript=transcript, start=start, end=start + 6, label="PERSON")
    review_assign_entities(transcript=transcript)
    page = open_review(login_page(annotator), live_server, transcript)
    mark = page.locator("#original mark").first.bounding_box()
    words = page.evaluate(
        """() => { const ut = document.querySelector('#original .ut');
        const node = Array.from(ut.childNodes).find(n => n.nodeType === 3 && n.textContent.includes('Kell'));
        const r = document.createRange(); const i = node.textContent.indexOf('Kell');
        r.setStart(node, i); r.setEnd(node, i + 4); const b = r.getBoundingClientRect();
        return {x: b.right - 1, y: b.top + b.height / 2}; }"""
    )
    page.mouse.move(mark["x"] + 3, mark["y"] + mark["height"] / 2)
    page.mouse.down()
    page.mouse.move(words["x"] - 20, words["y"], steps=4)
    page.mouse.move(words["x"], words["y"], steps=4)
    page.mouse.up()
    page.wait_for_selector("#add-popover:not([hidden])")
    assert page.inner_text("#add-popover .sel-text").endswith("Kell")
    page.keyboard.press("1")
    idle(page)
    kell = text.index("Kell")
    assert Span.objects.filter(transcript=transcript, start=kell, label="PERSON").exists()


@pytest.mark.parametrize("size", [1000, 5000])
def test_accepting_a_whole_label_from_the_header_then_undo(
    login_page, live_server, annotator, size
):
    transcript = make_bulk_transcript(assignees=[annotator], spans=size)
    page = open_review(login_page(annotator), live_server, transcript, auto_advance=False)
    dialogs = []
    page.on("dialog", lambda d: dialogs.append(d.message) or d.accept())
    page.locator("[data-accept-all-label=PERSON]").click()  # above 200: asks first
    idle(page)
    assert dialogs and str(size) in dialogs[0]
    assert Span.objects.filter(transcript=transcript, status="accepted").count() == size
    assert page.get_attribute("#progress", "data-decided") == str(size)
    page.keyboard.press("u")
    idle(page)
    assert Span.objects.filter(transcript=transcript, status="suggested").count() == size
    assert page.get_attribute("#progress", "data-decided") == "0"


def test_leaving_the_page_with_actions_queued_warns_and_loses_none(
    login_page, live_server, annotator, hearing
):
    page = open_review(login_page(annotator), live_server, hearing, auto_advance=False)
    order = list(
        Span.objects.filter(transcript=hearing)
        .order_by("start", "-end", "id")
        .values_list("pk", flat=True)
    )
    dialogs = []
    page.on("dialog", lambda d: dialogs.append(d.type) or d.accept())
    for _ in range(15):
        page.keyboard.press("j")
        page.keyboard.press("a")
    page.goto(live_server.url + reverse("annotations:review-reading", args=[hearing.pk]))
    assert dialogs == ["beforeunload"]
    until(lambda: Span.objects.filter(transcript=hearing, status="accepted").count() == 15)
    accepted = set(
        Span.objects.filter(transcript=hearing, status="accepted").values_list("pk", flat=True)
    )
    assert accepted == set(order[:15])


def test_the_merge_targets_load_on_demand_and_merge_after_the_dialog(
    login_page, live_server, annotator, hearing
):
    page = open_review(login_page(annotator), live_server, hearing, auto_advance=False)
    ref, first = _group_of(page, min_size=1)
    page.locator(f"#s-{first}").click()
    idle(page)
    page.wait_for_selector(f"#inspector[data-focus='{first}'] a[data-merge-targets]")
    assert page.locator("#inspector select[name=target]").count() == 0  # not sent with it
    page.locator("#inspector a[data-merge-targets]").click()
    target = page.locator("#inspector form[data-merge-form] select[name=target]")
    target.wait_for()
    into = target.evaluate("s => s.options[0].value")
    page.locator("#inspector form[data-merge-form] button[type=submit]").click()
    page.locator("#merge-dialog[open]").wait_for()
    page.keyboard.press("Enter")
    # The merge's answer redraws the mention in its new group (Enter only starts it: idle()
    # alone could look before the request left).
    page.wait_for_selector(f"#original mark[data-span-id='{first}'][data-ref='{into}']")
    idle(page)
    span = Span.objects.get(pk=first)
    assert span.entity.ref == into and into != ref


def test_a_group_rejection_the_server_refuses_is_taken_back_from_the_page(
    login_page, live_server, annotator, hearing
):
    page = open_review(login_page(annotator), live_server, hearing, auto_advance=False)
    ref, first = _group_of(page)
    page.locator(f"#s-{first}").click()
    idle(page)
    # someone else decides the whole group meanwhile: nothing is left to reject
    Span.objects.filter(transcript=hearing, entity__ref=ref).update(status="accepted")
    page.keyboard.press("X")
    idle(page)
    statuses = page.evaluate(
        f"() => Array.from(document.querySelectorAll('#original mark[data-ref=\"{ref}\"]')).map(m => m.dataset.status)"
    )
    assert statuses and set(statuses) == {"accepted"}
    decided = Span.objects.filter(transcript=hearing).exclude(status="suggested").count()
    assert page.get_attribute("#progress", "data-decided") == str(decided)


def form_transcript(annotator, *, mentions: int):
    """``mentions`` suggestions of one surface form, "Um" taken for a PERSON (five a line,
    25 lines a page), beside one real name."""
    import hashlib

    from transcripts.models import Transcript, Utterance

    lines = ["WITNESS: Um, I met Darrow Kell there."]
    lines += ["WITNESS: Um, well, um, I think, Um, that UM was, um, so."] * (mentions // 5)
    text = "\n".join(lines) + "\n"
    transcript = Transcript.objects.create(
        title="Synthetic hearing of many ums", text=text,
        sha256=hashlib.sha256(text.encode()).hexdigest(), state=Transcript.State.READY,
        page_count=len(lines) // 25 + 1,
    )  # fmt: skip
    offset, utterances, spans = 0, [], []
    for index, line in enumerate(lines):
        utterances.append(
            Utterance(transcript=transcript, index=index, speaker="WITNESS", page=index // 25 + 1,
                      start=offset, end=offset + len(line))
        )  # fmt: skip
        for m in re.finditer(r"\b(?:um|Darrow Kell)\b", line, re.IGNORECASE):
            spans.append(Span(transcript=transcript, start=offset + m.start(),
                              end=offset + m.end(), label="PERSON", score=0.9,
                              provenance=[{"detector": "cover", "score": 0.9}]))  # fmt: skip
        offset += len(line) + 1
    Utterance.objects.bulk_create(utterances)
    Span.objects.bulk_create(spans)
    transcript.assignees.set([annotator])
    review_assign_entities(transcript=transcript)
    return transcript


def test_rejecting_a_form_of_five_thousand_mentions_then_undo_answers_and_restores_all(
    login_page, live_server, annotator
):
    # The undo of a whole-form reject of 6,000 mentions answered 500 after 30 s (its
    # per-row CASE update): it costs what the rejection cost now.
    transcript = form_transcript(annotator, mentions=5000)
    page = login_page(annotator)
    dialogs, failures = [], []
    page.on("dialog", lambda d: dialogs.append(d.message) or d.accept())
    page.on("response", lambda r: r.status >= 500 and failures.append((r.url, r.status)))
    page.goto(live_server.url + reverse("annotations:review-forms", args=[transcript.pk]))
    page.wait_for_selector("#forms-page[data-ready='1']")
    assert page.get_attribute("li.fm-row.current", "data-form") == "um"
    page.keyboard.press("x")  # above 200 mentions: asks first
    forms_idle(page)
    assert dialogs and "5001" in dialogs[0].replace(",", "")
    assert statuses(transcript, "um").count("rejected") == 5001
    page.keyboard.press("u")
    forms_idle(page)
    until(lambda: set(statuses(transcript, "um")) == {"suggested"})
    assert "st-rejected" not in page.get_attribute("li.fm-row[data-form=um]", "class")
    assert not failures
    assert AuditEvent.objects.filter(event_type="review.undo").count() == 1
