"""bench_review_size (annotations/benchmarks/review_size.py): undo against the action it
undoes, and reading mode and the review page, at the sizes given; it leaves nothing."""

import json

import pytest
from django.core.management import call_command

from annotations.models import Span
from transcripts.models import Transcript


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.mark.django_db
def test_bench_review_size_reports_undo_and_pages_and_deletes_what_it_made(capsys):
    call_command("bench_review_size", "--sizes", "50,100", "--long-lines", "0", "--json",
                 "--repeat", "1")  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    undo = {(r["spans"], r["action"]): r for r in report["undo"]}
    assert set(undo) == {(n, a) for n in (50, 100) for a in ("reject_form", "accept_form")}
    assert all(r["forward_s"] > 0 and r["undo_s"] > 0 and r["ratio"] > 0 for r in undo.values())
    # undo of twice the spans: the same statements (bounded, not one per span)
    assert undo[(50, "reject_form")]["undo_queries"] == undo[(100, "reject_form")]["undo_queries"]
    pages = {(r["transcript"], r["page"]) for r in report["pages"]}
    assert pages == {(f"{n} spans", p) for n in (50, 100) for p in ("reading", "review")}
    assert not Transcript.objects.exists() and not Span.objects.exists()
