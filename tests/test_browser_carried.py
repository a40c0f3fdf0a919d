"""Carried decisions in Debian's Chromium, from import to release: approved hearings
rejected Rose, Guy, Young, King and Camry as ordinary words; a new hearing, imported as
text, names people so. In the form table nothing of theirs is proposed for rejection,
Camry's carried rejection is shown as a proposal and confirmed in one input, the rest is
accepted; submitted, approved by a lead who did not touch it, the release names nobody."""

import re

import pytest
from django.urls import reverse

from annotations.models import Span
from annotations.services.annotation import transcript_annotate
from annotations.services.export import release_text
from engine.detectors.base import Detection, Document
from tests.factories import make_user
from tests.test_carried_proposals import Words, rejected_in_approved_hearings
from transcripts.models import Transcript
from transcripts.services.importing import transcript_import

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEARING = (
    "PRESIDING COMMISSIONER ALDEN: Who visits you?\n"
    "INMATE QUILL: My wife Rose visits on Sundays. Rose works nights.\n"
    "INMATE QUILL: My cousin Guy drives her.\n"
    "INMATE QUILL: My sponsor is Daniel Young, and Young runs the program.\n"
    "INMATE QUILL: My lawyer is Martin King; King filed the appeal.\n"
    "PRESIDING COMMISSIONER ALDEN: How did you get here?\n"
    "INMATE QUILL: I drove the Camry home. The Camry was red.\n"
)


class HearingWords(Words):
    """The stand-in member, and the speakers' names in their tags."""

    def detect(self, document: Document) -> list[Detection]:
        return [
            *super().detect(document),
            *(
                Detection(m.start(), m.end(), "PERSON", 0.9, self.name)
                for m in re.finditer(r"\b(?:ALDEN|QUILL)\b", document.text)
            ),
        ]


@pytest.fixture(autouse=True)
def _words(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"
    settings.DETECTORS = [{"NAME": "tests.test_browser_carried.HearingWords", "OPTIONS": {}}]


def settle(page):
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request')"
        " && !(window.__formsBusy && window.__formsBusy())"
    )


def test_a_carried_decision_is_confirmed_in_the_browser_and_the_release_names_nobody(
    login_page, live_server, annotator, artifacts_dir
):
    rejected_in_approved_hearings()
    t = transcript_import(
        name="hearing.txt", data=HEARING.encode(), assignees=[annotator], annotate=False
    )
    transcript_annotate(transcript=t)
    t.refresh_from_db()
    assert t.state == Transcript.State.READY
    page = login_page(annotator)
    page.goto(live_server.url + reverse("annotations:review-forms", args=[t.pk]) + "?label=PERSON")
    page.wait_for_selector("#forms-page[data-ready='1']")
    carried = page.locator(".fm-carried[data-carried-pending]")
    assert carried.count() == 1  # Camry only: the names the hearing gives are not proposed
    assert "carried: reject — rejected in 3 approved hearings" in carried.inner_text()
    page.screenshot(path=str(artifacts_dir / "carried-proposal-forms.png"), full_page=True)
    page.locator("#confirm-carried").click()  # one input for the label's proposals
    page.wait_for_selector(".fm-row[data-form='camry'].st-rejected:not(.pending)")
    settle(page)
    camry = Span.objects.filter(
        transcript=t, start__in=[m.start() for m in re.finditer("Camry", t.text)]
    )
    assert {(s.status, s.reviewer_id) for s in camry} == {("rejected", annotator.pk)}
    page.locator("#accept-rest").click()
    page.wait_for_function("() => !document.querySelector('#accept-rest')")
    settle(page)
    assert not Span.objects.filter(transcript=t, status="suggested").exists()
    page.goto(live_server.url + reverse("annotations:detail", args=[t.pk]))
    page.locator("#submit-review").click()
    page.wait_for_selector(".msg-success:has-text('submitted for approval')")
    lead_page = login_page(make_user("lead2", role="lead"))
    lead_page.goto(live_server.url + reverse("annotations:detail", args=[t.pk]))
    summary = lead_page.locator("#review-summary")
    summary.wait_for()
    assert "carried, confirmed · rejected in 3 approved hearings" in summary.inner_text()
    lead_page.locator("#approve").click()
    lead_page.wait_for_selector(".msg-success")
    t = Transcript.objects.get(pk=t.pk)
    assert t.state == Transcript.State.APPROVED
    release = release_text(transcript=t)
    for name in ("Rose", "Guy", "Young", "King", "Daniel", "Martin"):
        assert not re.search(rf"\b{name}\b", release), name
    assert "I drove the Camry home" in release
