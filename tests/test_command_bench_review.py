import json

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_bench_review_times_every_action_as_a_user_with_the_annotator_role(capsys):
    # The benchmark's user needs the role group as well as the assignment (issue 11);
    # without it every request answered 404 and the command stopped at the page load.
    call_command("bench_review", "--words", "1500", "--spans", "80", "--repeat", "1", "--json")
    result = json.loads(capsys.readouterr().out)
    text = json.dumps(result)
    for action in ("page_load", "accept", "reject", "relabel", "undo", "relabel_long_line",
                   "forms_page", "relabel_form", "occurrence_reject"):  # fmt: skip
        assert action in text
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
    text = json.dumps(result)
    for page in ("approval screen", "reading mode", "approve", "release text"):
        assert page in text


def test_bench_review_actions_do_not_depend_on_the_deployments_https_setting(capsys, settings):
    settings.SECURE_SSL_REDIRECT = True
    call_command("bench_review", "--words", "1500", "--spans", "80", "--repeat", "1", "--json")
    assert "page_load" in json.loads(capsys.readouterr().out)["timings"]
