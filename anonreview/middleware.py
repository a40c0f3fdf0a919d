"""Request checks and response headers for a tool that holds personal data.

``RejectNulMiddleware`` answers 400 with a sentence to a request whose query string or
form fields hold a NUL character (``%00``): no field of the app takes one, and the
databases refuse it (PostgreSQL raises on a NUL in text: a 500 before).

``NoStoreMiddleware`` marks every response the app's views produce ``Cache-Control:
no-store`` (review, detail, audit pages and exports show original text; the queue shows
titles): no browser or proxy keeps a copy. Static files are answered by WhiteNoise above
this middleware and stay cacheable.
"""

from __future__ import annotations

from django.http import HttpResponseBadRequest
from django.utils.cache import patch_cache_control

NUL_MESSAGE = (
    "The request holds a NUL character (%00), which no field accepts: remove it and try again."
)


def _holds_nul(data) -> bool:
    return any("\x00" in key or any("\x00" in v for v in data.getlist(key)) for key in data)


class RejectNulMiddleware:
    """400 for a NUL byte in a query parameter or a form field (names or values); uploaded
    files are not looked at (a PDF holds NUL bytes)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            "\x00" in request.path
            or _holds_nul(request.GET)
            or (request.method == "POST" and _holds_nul(request.POST))
        ):
            response = HttpResponseBadRequest(NUL_MESSAGE, content_type="text/plain; charset=utf-8")
            patch_cache_control(response, no_store=True, private=True)
            return response
        return self.get_response(request)


class NoStoreMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_cache_control(response, no_store=True, private=True)
        return response
