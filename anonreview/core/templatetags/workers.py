"""``{% load workers %}{% no_worker_alive as down %}``: whether queued jobs wait for
workers that are not running (the database backend, and no live ``db_worker``)."""

from django import template

from anonreview.core.workers import workers_alive_count, workers_expected

register = template.Library()


@register.simple_tag
def no_worker_alive() -> bool:
    return workers_expected() and workers_alive_count() == 0
