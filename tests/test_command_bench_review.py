import json

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_bench_review_times_every_action_as_a_user_with_the_annotator_role(capsys):
    # The benchmark's user needs the role group as well as the assignment;
    # without it every request answered 404 and the command stopped at the page load.
    call_command("bench_review", "--words", "1500", "--spans", "120", "--repeat", "1", "--json")
    result = json.loads(capsys.readouterr().out)
    for action in ("page_load", "search", "accept", "reject", "relabel", "undo",
                   "relabel_long_line", "forms_page", "relabel_form", "occurrence_reject"):  # fmt: skip
        assert action in result["timings"]
    # Every answer's size is reported; on the longest lines too.
    for name in ("accept", "relabel", "accept_long_line", "relabel_long_line"):
        row = result["timings"][name]
        assert 0 < row["answer_bytes"] <= row["answer_max_bytes"] <= 10 * 1024


def test_bench_review_lead_does_not_depend_on_the_deployments_https_setting(capsys, settings):
    # Run without HTTPS=0 (the settings' default when DEBUG is off), every plain request
    # of the benchmark's own test client answered 301 and --lead stopped at its first page.
    settings.SECURE_SSL_REDIRECT = True
    settings.SESSION_COOKIE_SECURE = True
    settings.CSRF_COOKIE_SECURE = True
    call_command("bench_review", "--lead", "--words", "1500", "--repeat", "1", "--json")
    result = json.loads(capsys.readouterr().out)
    for page in ("submit", "approval screen", "reading mode", "approve", "release text"):
        assert page in result["timings"]


def test_bench_review_actions_do_not_depend_on_the_deployments_https_setting(capsys, settings):
    settings.SECURE_SSL_REDIRECT = True
    call_command("bench_review", "--words", "1500", "--spans", "120", "--repeat", "1", "--json")
    assert "page_load" in json.loads(capsys.readouterr().out)["timings"]


def test_bench_review_layout_times_the_actions_on_a_question_and_answer_transcript(capsys):
    # The figures on a Q/A transcript too, not only on a parole hearing (--layout).
    call_command("bench_review", "--layout", "grand_jury", "--words", "1500",
                 "--spans", "1000", "--repeat", "1", "--json")  # fmt: skip
    result = json.loads(capsys.readouterr().out)
    assert result["layout"] == "grand_jury"
    for name in ("page_load", "accept", "merge", "split", "forms_page", "occurrence_reject"):
        assert result["timings"][name]["median_ms"] > 0


def test_bench_review_lead_layout_stores_the_familys_imported_text_with_its_gold(capsys):
    # The lead's pages (and --session's oracle, which decides by the stored suggestions)
    # need the family's gold on the family's text as the importer reads it: one utterance
    # per question and per answer.
    call_command("bench_review", "--lead", "--layout", "grand_jury", "--words", "1500",
                 "--repeat", "1", "--json", "--keep")  # fmt: skip
    result = json.loads(capsys.readouterr().out)
    assert result["layout"] == "grand_jury"
    for name in ("approval screen", "reading mode", "approve", "release text"):
        assert name in result["timings"]
    from engine.importing import parse_text
    from engine.synthetic.families import family_document
    from engine.synthetic.family_render import render_text
    from transcripts.models import Transcript

    transcript = Transcript.objects.get(title__startswith="Synthetic grand jury 7")
    doc = family_document(7, "grand_jury", words=1500)
    assert transcript.text == doc.gold.text
    imported = parse_text(render_text(doc).encode()).utterances
    stored = transcript.utterances.order_by("index").values_list("speaker", "start", "end")
    assert list(stored) == [(u.speaker, u.start, u.end) for u in imported]
    # Every stored suggestion lies on a gold mention of the family, and every gold
    # mention carries one.
    gold = [(s.start, s.end) for s in doc.gold.spans]
    spans = list(transcript.spans.values_list("start", "end"))
    assert all(any(a <= s and e <= b for a, b in gold) for s, e in spans)
    assert all(any(a <= s and e <= b for s, e in spans) for a, b in gold)
    # Submit's leak list was answered "not a leak here" only off the gold, and the lead
    # approved.
    assert transcript.state == Transcript.State.APPROVED
    marked = list(transcript.leak_exceptions.values_list("start", "end"))
    assert len(marked) == result["not_a_leak"]
    assert not any(a < e and s < b for a, b in marked for s, e in gold)
