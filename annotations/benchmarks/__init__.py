"""Benchmark harness: what the ``bench_review`` and ``bench_corpus`` commands run.

The commands (``annotations/management/commands/``) parse their options and print; the
work lives here: ``review_transcript`` (the generated reviewed hearing, used by tests
too), ``review_server`` (server time of the review page and actions, a lead's pages),
``review_browser`` (key → update in Chromium), ``review_session`` (an oracle annotator's
session to Submit), ``busy_workers`` (workers annotating meanwhile) and ``corpus`` (a
generated corpus through upload, import and annotation on K workers). Nothing in the
application (services, views, tasks) imports this package (an import-linter contract).
"""
