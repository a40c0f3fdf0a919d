"""``{% load workers %}{% no_worker_alive as down %}``: whether queued jobs wait for
workers that are not running (the database backend, and no live ``db_worker``)."""

from django import template

from anonreview.core.workers import workers_alive_count, workers_expected

register = template.Library()


@register.simple_tag(takes_context=True)
def no_worker_alive(context) -> bool:
    """Asked once per request however many job bars a page shows."""
    request = context.get("request")
    cached = getattr(request, "_no_worker_alive", None)
    if cached is None:
        cached = workers_expected() and workers_alive_count() == 0
        if request is not None:
            request._no_worker_alive = cached
    return cached
