"""Hardening and what an attacker tries: login throttling, the
Content-Security-Policy, ``Cache-Control: no-store``, idle session expiry, access that
needs the role group as well as the assignment, every URL walked anonymously and as an
unassigned annotator, open redirects, CSRF, and GETs that must change nothing."""

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from annotations.models import Entity, Span
from anonreview.core.models import AuditEvent
from tests.factories import make_transcript, make_user
from transcripts.models import Transcript

pytestmark = pytest.mark.django_db
SECRET = "Quillfeather"
TEXT = f"INCARCERATED PERSON {SECRET.upper()}: Yes.\nPRESIDING COMMISSIONER ALDEN: Mr. {SECRET}.\n"


@pytest.fixture
def victim(annotator):
    """A transcript assigned to ``annotator`` (not to the attacker), with one span."""
    t = make_transcript(TEXT, assignees=[annotator], state=Transcript.State.IN_REVIEW)
    start = TEXT.index(SECRET, 30)
    Span.objects.create(transcript=t, start=start, end=start + len(SECRET), label="PERSON")
    return t


# --- login throttling ------------------------------------------------------------------


def test_login_is_locked_after_repeated_failures_with_a_message(client):
    make_user("target", role="annotator")
    url = reverse("login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(url, {"username": "target", "password": "wrong"})
        assert response.status_code == 200 and "didn't match" in response.content.decode()
    response = client.post(url, {"username": "target", "password": "wrong"})
    assert response.status_code == 429
    body = response.content.decode()
    assert 'id="lockout"' in body and "Too many failed log-ins" in body
    # Even the right password is refused during the lockout, with the same message.
    response = client.post(url, {"username": "target", "password": "pw-test-123"})
    assert response.status_code == 429 and "_auth_user_id" not in client.session


def test_a_successful_login_works_and_resets_the_failure_count(client):
    make_user("target", role="annotator")
    url = reverse("login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post(url, {"username": "target", "password": "wrong"})
    response = client.post(url, {"username": "target", "password": "pw-test-123"})
    assert response.status_code == 302 and "_auth_user_id" in client.session


# --- headers ------------------------------------------------------------------------


def test_pages_send_a_strict_content_security_policy(client, annotator, victim):
    client.force_login(annotator)
    response = client.get(reverse("annotations:review", args=[victim.pk]))
    policy = response["Content-Security-Policy"]
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in policy.split(";") if part.strip()
    )
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_templates_hold_no_inline_scripts_styles_or_handlers(client, annotator, lead, victim):
    """What a strict CSP would block: inline <script>/<style>, style="", on*="" handlers."""
    pages = [
        (annotator, reverse("annotations:review", args=[victim.pk])),
        (annotator, reverse("transcripts:list")),
        (annotator, reverse("annotations:detail", args=[victim.pk])),
        (lead, reverse("annotations:export")),
        (lead, reverse("transcripts:list")),
        (lead, reverse("transcripts:upload")),
        (lead, reverse("transcripts:audit-all")),
        (lead, reverse("annotations:dashboard")),
        (lead, reverse("annotations:learning")),
        (lead, reverse("annotations:allowlist")),
    ]
    for user, url in pages:
        client.force_login(user)
        body = client.get(url).content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body), url
        assert "<style" not in body, url
        assert not re.search(r'\sstyle="', body), url
        assert not re.search(r"\son[a-z]+=", body), url


@pytest.mark.parametrize(
    "name", ["review", "review-inspector", "detail", "audit", "export", "list"]
)
def test_pages_with_original_text_are_never_cached(client, lead, victim, name):
    urls = {
        "review": reverse("annotations:review", args=[victim.pk]),
        "review-inspector": reverse("annotations:review-inspector", args=[victim.pk]),
        "detail": reverse("annotations:detail", args=[victim.pk]),
        "audit": reverse("transcripts:audit", args=[victim.pk]),
        "export": reverse("annotations:export"),
        "list": reverse("transcripts:list"),
    }
    client.force_login(lead)
    response = client.get(urls[name])
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def test_review_actions_and_downloads_are_never_cached(client, annotator, victim):
    client.force_login(annotator)
    span = Span.objects.get(transcript=victim)
    response = client.post(
        reverse("annotations:review-action", args=[victim.pk, "accept"]),
        {"span": span.pk, "version": span.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]


# --- sessions ----------------------------------------------------------------------------


def test_sessions_expire_after_the_configured_idle_time(client, annotator):
    assert settings.SESSION_COOKIE_AGE == 8 * 3600
    assert settings.SESSION_SAVE_EVERY_REQUEST is True  # idle time, not time since login
    client.force_login(annotator)
    client.get(reverse("transcripts:list"))
    assert client.session.get_expiry_age() == 8 * 3600


# --- access needs the role group as well as the assignment -------------------------------


def test_an_assignee_removed_from_the_annotator_group_loses_access(client, annotator, victim):
    client.force_login(annotator)
    url = reverse("annotations:review", args=[victim.pk])
    assert client.get(url).status_code == 200
    annotator.groups.remove(Group.objects.get(name="annotator"))
    assert client.get(url).status_code == 404
    assert client.get(reverse("annotations:detail", args=[victim.pk])).status_code == 404
    assert client.get(reverse("transcripts:audit", args=[victim.pk])).status_code == 404
    span = Span.objects.get(transcript=victim)
    response = client.post(
        reverse("annotations:review-action", args=[victim.pk, "accept"]),
        {"span": span.pk, "version": span.version},
    )
    assert response.status_code == 404
    assert Transcript.objects.visible_to(annotator).count() == 0
    assert SECRET not in client.get(reverse("transcripts:list")).content.decode()


def test_a_user_without_any_role_sees_nothing(client, victim):
    nobody = make_user("nobody", role=None)
    victim.assignees.add(nobody)
    client.force_login(nobody)
    assert client.get(reverse("annotations:review", args=[victim.pk])).status_code == 404


# --- walking every URL as an attacker ---------------------------------------------------


def _patterns(resolver=None, prefix=""):
    resolver = resolver or get_resolver()
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            if str(p.pattern).startswith("admin/"):
                continue  # Django's admin: staff only, its own login
            yield from _patterns(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern)


def _urls(transcript_id: int, span_id: int) -> list[str]:
    out = []
    for route in _patterns():
        if route.startswith("^"):
            continue
        url = "/" + route
        url = re.sub(r"<int:(transcript_id|pk)>", str(transcript_id), url)
        url = re.sub(r"<int:(term_id|job_id|window)>", "0", url)
        url = re.sub(r"<str:action>", "accept", url)
        url = re.sub(r"<str:fmt>", "csv", url)
        assert "<" not in url, url
        out.append(url)
    return sorted(set(out))


def test_every_url_walked_anonymously_leads_to_the_login_page(victim):
    client = Client()
    span = Span.objects.get(transcript=victim)
    for url in _urls(victim.pk, span.pk):
        if url == reverse("login"):
            continue
        for method in ("get", "post"):
            response = getattr(client, method)(url, {"span": span.pk, "version": 1})
            assert response.status_code in (302, 405), (method, url, response.status_code)
            if response.status_code == 302:
                assert response["Location"].startswith(reverse("login")), (method, url)
            assert SECRET.encode() not in response.content
    assert Span.objects.get(pk=span.pk).status == "suggested"
    assert not AuditEvent.objects.filter(actor__isnull=False).exists()


def test_every_url_walked_as_an_unassigned_annotator_reveals_and_changes_nothing(victim):
    attacker = make_user("mallory", role="annotator")
    client = Client()
    client.force_login(attacker)
    span = Span.objects.get(transcript=victim)
    # Pages every annotator may read: their queue, and the allow-list (domain terms, no
    # personal data; only leads change it).
    allowed = {reverse("transcripts:list"), "/", reverse("annotations:allowlist")}
    for url in _urls(victim.pk, span.pk):
        for method in ("get", "post"):
            response = getattr(client, method)(url, {"span": span.pk, "version": 1})
            assert SECRET.encode() not in response.content, (method, url)
            assert SECRET.upper().encode() not in response.content, (method, url)
            if (method, url) == ("post", reverse("annotations:allowlist")):
                assert response.status_code == 403
                continue
            if url in allowed or url == reverse("login") or url == reverse("logout"):
                continue
            assert response.status_code in (400, 403, 404, 405), (
                method,
                url,
                response.status_code,
            )
        if url == reverse("logout"):
            client.force_login(attacker)
    assert Span.objects.get(pk=span.pk).status == "suggested"
    assert not AuditEvent.objects.filter(actor=attacker).exists()


def test_span_ids_of_another_transcript_are_refused(client, annotator, victim):
    """IDOR: a span of someone else's transcript, posted to one's own transcript's URL."""
    own = make_transcript("INMATE ROE: Yes.\n", assignees=[make_user("eve", role="annotator")])
    client.force_login(own.assignees.get())
    span = Span.objects.get(transcript=victim)
    for action in ("accept", "reject", "delete", "relabel", "split", "apply_all"):
        response = client.post(
            reverse("annotations:review-action", args=[own.pk, action]),
            {"span": span.pk, "version": span.version, "label": "DATE"},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code in (400, 404, 409), action
        assert SECRET.encode() not in response.content
    fresh = Span.objects.get(pk=span.pk)
    assert (fresh.status, fresh.version, fresh.label) == ("suggested", 1, "PERSON")


def test_merge_refs_of_another_transcript_are_refused(client, annotator, victim):
    from annotations.services.entities import entities_assign

    entities_assign(transcript=victim)
    ref = Entity.objects.get(transcript=victim).ref
    own = make_transcript("INMATE ROE: Yes, Roe.\n", assignees=[annotator])
    client.force_login(annotator)
    response = client.post(
        reverse("annotations:review-action", args=[own.pk, "merge"]),
        {"source": ref, "target": ref, "group_version": [f"{ref}:x"]},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code in (400, 404, 409)
    assert Entity.objects.filter(transcript=victim, ref=ref).exists()


def test_an_annotator_cannot_use_lead_only_endpoints(client, annotator, victim):
    client.force_login(annotator)
    posts = {
        reverse("annotations:approve", args=[victim.pk]): {},
        reverse("annotations:return", args=[victim.pk]): {"comment": "x"},
        reverse("transcripts:assign", args=[victim.pk]): {"annotator": "ann"},
        reverse("annotations:release"): {"transcript": victim.pk},
        reverse("annotations:export-release-zip"): {"transcripts": [victim.pk]},
        reverse("annotations:export-key"): {"transcripts": [victim.pk]},
        reverse("annotations:export-key-one", args=[victim.pk]): {},
        reverse("annotations:export-release-text", args=[victim.pk]): {},
        reverse("annotations:export-gold"): {"scope": "all"},
        reverse("annotations:allowlist"): {"term": SECRET},
        reverse("annotations:dashboard-recompute"): {},
        reverse("transcripts:upload"): {},
    }
    for url, data in posts.items():
        response = client.post(url, data)
        assert response.status_code in (403, 404), (url, response.status_code)
    assert Transcript.objects.get(pk=victim.pk).state == Transcript.State.IN_REVIEW
    assert not AuditEvent.objects.filter(actor=annotator).exists()


@pytest.mark.parametrize(
    "target",
    ["https://evil.example/", "//evil.example/", "/\\evil.example/", "http:evil.example"],
)
def test_next_and_back_never_redirect_off_site(client, lead, annotator, target):
    t = make_transcript(TEXT, assignees=[annotator])
    make_user("login-user", role="annotator")
    response = Client().post(
        reverse("login") + f"?next={target}",
        {"username": "login-user", "password": "pw-test-123", "next": target},
    )
    assert response.status_code == 302 and "evil" not in response["Location"]
    client.force_login(lead)
    response = client.post(
        reverse("transcripts:assign", args=[t.pk]), {"annotator": "ann", "next": target}
    )
    assert "evil" not in response["Location"]
    response = client.post(reverse("annotations:release"), {"transcript": t.pk, "back": target})
    assert response.status_code == 302 and "evil" not in response["Location"]


def test_state_changing_posts_need_the_csrf_token(annotator, victim):
    client = Client(enforce_csrf_checks=True)
    client.force_login(annotator)
    span = Span.objects.get(transcript=victim)
    for url, data in [
        (
            reverse("annotations:review-action", args=[victim.pk, "accept"]),
            {"span": span.pk, "version": 1},
        ),
        (reverse("annotations:submit", args=[victim.pk]), {}),
        (reverse("logout"), {}),
    ]:
        assert client.post(url, data).status_code == 403, url
    assert Span.objects.get(pk=span.pk).status == "suggested"


def test_no_get_changes_any_state(client, lead, victim):
    """A GET (an <img src> on another site) must never change data: walk every URL."""
    client.force_login(lead)
    span = Span.objects.get(transcript=victim)
    before = (AuditEvent.objects.count(), Span.objects.count(), Entity.objects.count())
    for url in _urls(victim.pk, span.pk):
        if url == reverse("logout"):
            continue
        client.get(url)
    assert (AuditEvent.objects.count(), Span.objects.count(), Entity.objects.count()) == before
    assert Transcript.objects.get(pk=victim.pk).state == Transcript.State.IN_REVIEW
