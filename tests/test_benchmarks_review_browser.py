"""The browser benchmark's own server (annotations/benchmarks/review_browser.py) serves
plain HTTP whatever the deployment's HTTPS setting (run as the
README shows it, without ``HTTPS=0``, it redirected Chromium to https)."""

import http.client
from urllib.parse import urlsplit

from annotations.benchmarks.review_browser import _Server, server_environment


def test_the_servers_environment_forces_plain_http(monkeypatch):
    monkeypatch.setenv("HTTPS", "1")
    assert server_environment()["HTTPS"] == "0"


def test_the_benchmarks_server_answers_plain_http_when_the_deployment_says_https(monkeypatch):
    # As the README runs it: the project's settings, DEBUG off, no HTTPS in the
    # environment, so the settings' default (HTTPS on) applies.
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "anonreview.settings")
    monkeypatch.delenv("HTTPS", raising=False)
    monkeypatch.delenv("DEBUG", raising=False)
    with _Server() as base:
        url = urlsplit(base)
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
        connection.request("GET", "/accounts/login/")
        response = connection.getresponse()
        location = response.getheader("Location") or ""
        connection.close()
    assert url.scheme == "http"
    assert not location.startswith("https:"), location
    assert response.status == 200
