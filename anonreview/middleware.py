"""Response headers for a tool that holds personal data.

``NoStoreMiddleware`` marks every response the app's views produce ``Cache-Control:
no-store`` (review, detail, audit pages and exports show original text; the queue shows
titles): no browser or proxy keeps a copy. Static files are answered by WhiteNoise above
this middleware and stay cacheable.
"""

from __future__ import annotations

from django.utils.cache import patch_cache_control


class NoStoreMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_cache_control(response, no_store=True, private=True)
        return response
