"""The strict Content-Security-Policy in Chromium: the review page's
htmx and the review scripts work, nothing is refused, sizes are set without style attributes."""

import pytest
from django.urls import reverse

from annotations.benchmarks.review_transcript import build_review_transcript
from annotations.models import Span

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def test_review_page_works_under_the_csp_without_violations(login_page, live_server, annotator):
    hearing = build_review_transcript(seed=7, words=900, max_spans=80, assignees=[annotator])
    page = login_page(annotator)
    refused = []
    page.on(
        "console",
        lambda msg: refused.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    response = page.goto(live_server.url + reverse("annotations:review", args=[hearing.pk]))
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector("#review[data-ready='1']")
    first = page.locator("#original mark[data-status=suggested]").first
    span_id = first.get_attribute("data-span-id")
    first.click()
    page.keyboard.press("a")  # accept: an htmx POST with the span's version
    page.wait_for_selector(f'#original mark[data-span-id="{span_id}"][data-status=accepted]')
    page.wait_for_function("() => !window.__reviewBusy()")  # answered by the server
    assert Span.objects.get(pk=span_id).status == "accepted"
    width = page.evaluate(
        "() => document.querySelector('#progress .progress-bar > span').style.width"
    )
    assert width.endswith("%")  # set from data-width through the CSSOM (app.js)
    open_share = page.evaluate(
        "() => { const c = document.querySelector('.mm[data-open]');"
        " return c ? c.style.getPropertyValue('--open') : '0%'; }"
    )
    assert open_share.endswith("%")  # the minimap's custom property, likewise
    assert refused == []
