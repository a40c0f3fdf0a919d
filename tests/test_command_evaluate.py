"""``manage.py evaluate``: the DESIGN.md JSON shape and figures on a tiny gold file."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from engine.detectors.base import Detection, Detector
from engine.gold import GoldDoc, GoldSpan, write_jsonl

pytestmark = pytest.mark.django_db

LIGHT = [
    {"NAME": "engine.detectors.patterns.PatternDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.cover.CoverPageDetector", "OPTIONS": {}},
]


@pytest.fixture
def gold_file(tmp_path):
    text = "ALDEN: Good morning, Mr. Quill. Your number is V12345. We met on Monday.\n"
    doc = GoldDoc(
        id="tiny-1",
        text=text,
        spans=[
            GoldSpan(text.index("Quill"), text.index("Quill") + 5, "PERSON"),
            GoldSpan(text.index("V12345"), text.index("V12345") + 6, "CDCR_ID"),
            GoldSpan(text.index("Monday"), text.index("Monday") + 6, "DATE"),
            GoldSpan(text.index("morning"), text.index("morning") + 7, "TIME"),  # not found: a leak
        ],
        ignore=[(0, 5)],  # the speaker prefix is not annotated in this gold
        meta={
            "metadata": {
                "incarcerated_person": "Thomas Quill",
                "participants": [{"name": "Ann Alden"}],
            }
        },
    )
    path = tmp_path / "gold.jsonl"
    write_jsonl([doc], path)
    return path


def test_evaluate_json_has_the_design_shape_and_hand_computed_figures(settings, gold_file):
    settings.DETECTORS = LIGHT
    out = StringIO()
    call_command("evaluate", "--gold", str(gold_file), "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert set(report) >= {"overall", "labels", "detectors", "leaked_tokens"}
    assert set(report["overall"]) == {"exact", "token"}
    for level in ("exact", "token"):
        assert {"p", "r", "f1"} <= set(report["overall"][level])
    exact = report["overall"]["exact"]
    # Quill, V12345, Monday found; "morning" missed; ALDEN lies in the ignore region
    assert (exact["tp"], exact["fp"], exact["fn"]) == (3, 0, 1)
    assert exact["p"] == 1.0 and exact["r"] == 0.75
    assert report["labels"]["TIME"]["exact"]["r"] == 0.0
    assert report["labels"]["PERSON"]["exact"]["f1"] == 1.0
    assert set(report["detectors"]) == {"cover", "patterns"}
    assert report["detectors"]["cover"]["exact"]["tp"] == 1  # Quill
    assert report["leaked_tokens"] == 1  # "morning"


def test_evaluate_runs_only_the_named_detectors(settings, gold_file):
    settings.DETECTORS = LIGHT
    out = StringIO()
    call_command("evaluate", "--gold", str(gold_file), "--detectors", "cover", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert set(report["detectors"]) == {"cover"}
    assert report["overall"]["exact"]["tp"] == 1


def test_evaluate_text_report_and_errors(settings, gold_file, tmp_path):
    settings.DETECTORS = LIGHT
    out = StringIO()
    call_command("evaluate", "--gold", str(gold_file), stdout=out)
    assert "overall exact" in out.getvalue() and "leaked gold tokens: 1" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("evaluate", "--gold", str(gold_file), "--detectors", "nope")
    with pytest.raises(CommandError):
        call_command("evaluate", "--gold", str(tmp_path / "missing.jsonl"))


def test_commands_say_in_words_when_the_database_is_not_migrated(tmp_path):
    """A new user running a command before `migrate` gets a sentence, not a traceback."""
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "anonreview.settings",
    }
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "a", "text": "Hello.", "spans": []}\n')
    # (anonymize runs without a database: the default allow-list;
    # tests/test_command_anonymize.py.)
    for argv in (["evaluate", "--gold", str(gold)],):
        done = subprocess.run(
            [sys.executable, "manage.py", *argv],
            env=env,
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parent.parent,
        )
        assert done.returncode == 1
        assert "run `python manage.py migrate`" in done.stderr
        assert "Traceback" not in done.stderr


def test_evaluate_leaves_safety_net_suggestions_out_of_the_main_figures(settings, tmp_path):
    text = "ALDEN: Good morning, Mr. Quill. Zyranthe called on Monday.\n"
    doc = GoldDoc(
        id="net-1",
        text=text,
        spans=[
            GoldSpan(text.index("Quill"), text.index("Quill") + 5, "PERSON"),
            GoldSpan(text.index("Zyranthe"), text.index("Zyranthe") + 8, "PERSON"),
            GoldSpan(text.index("Monday"), text.index("Monday") + 6, "DATE"),
        ],
        ignore=[(0, 5)],
    )
    path = tmp_path / "gold.jsonl"
    write_jsonl([doc], path)
    settings.DETECTORS = [
        *LIGHT,
        {"NAME": "engine.detectors.safety_net.SafetyNetDetector", "OPTIONS": {}},
    ]
    out = StringIO()
    call_command("evaluate", "--gold", str(path), "--json", stdout=out)
    report = json.loads(out.getvalue())
    # main figures: Zyranthe (a possible miss only) is missed and leaks
    assert report["overall"]["exact"]["fn"] == 1 and report["leaked_tokens"] == 1
    # with the safety net counted as spans, it is covered
    assert report["with_safety_net"]["overall"]["exact"]["tp"] == 3
    assert report["with_safety_net"]["leaked_tokens"] == 0
    assert report["safety_net"]["spans"] == 1
    assert "safety_net" in report["detectors"]


def test_evaluate_name_words_reports_names_and_roles_covered(settings, tmp_path):
    settings.DETECTORS = LIGHT
    text = "Good morning, Petitioner. Mr. Quill, you met Dr. Varga, Okonkwo and the Lutherans.\n"
    span = lambda value: GoldSpan(text.index(value), text.index(value) + len(value), "PERSON")  # noqa: E731
    doc = GoldDoc(
        id="tiny-2",
        text=text,
        spans=[
            span("Petitioner"),
            span("Mr. Quill"),
            span("Dr. Varga"),
            span("Okonkwo"),
            span("the Lutherans"),
        ],
    )
    path = tmp_path / "gold.jsonl"
    write_jsonl([doc], path)
    out = StringIO()
    call_command("evaluate", "--gold", str(path), "--name-words", "--json", stdout=out)
    words = json.loads(out.getvalue())["name_words"]
    # names: Quill, Varga (after honorifics, PERSON) and Okonkwo (no detector here knows it);
    # titles and roles: Petitioner, Mr, Dr
    assert (words["names"]["words"], words["names"]["covered_person"]) == (3, 2)
    assert (words["roles"]["words"], words["roles"]["covered_person"]) == (3, 0)
    assert words["groups"]["words"] == 1  # Lutherans: a group, not a name
    assert {m["word"] for m in words["missed"] if m["kind"] == "names"} == {"Okonkwo"}
    assert set(words["with_safety_net"]) == {"all", "names", "roles", "groups"}
    text_out = StringIO()
    call_command("evaluate", "--gold", str(path), "--name-words", stdout=text_out)
    assert "missed as PERSON [names, nothing] Okonkwo" in text_out.getvalue()


def test_evaluate_scores_person_as_whole_mentions_and_as_name_parts_and_says_which(
    settings, tmp_path
):
    settings.DETECTORS = LIGHT
    text = "ALDEN: Good day, Thomas Quill. Mr. Quill, sit down.\n"
    first = text.index("Thomas")
    second = text.index("Quill", first + 12)
    doc = GoldDoc(
        id="names-1",
        text=text,
        spans=[GoldSpan(first, first + 12, "PERSON"), GoldSpan(second, second + 5, "PERSON")],
        ignore=[(0, 5)],
        meta={"metadata": {"incarcerated_person": "Thomas Quill"}},
    )
    path = tmp_path / "whole.jsonl"
    write_jsonl([doc], path)
    out = StringIO()
    call_command("evaluate", "--gold", str(path), "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["person"] == "names"
    assert report["labels"]["PERSON"]["exact"]["tp"] == 2  # "Thomas Quill" and "Quill"
    both = report["person_both"]
    assert both["names"]["PERSON"]["exact"]["tp"] == 2
    assert both["parts"]["PERSON"]["exact"]["tp"] == 3  # Thomas, Quill, Quill
    assert both["names"]["PERSON"]["exact"]["f1"] == both["parts"]["PERSON"]["exact"]["f1"] == 1.0
    out = StringIO()
    call_command("evaluate", "--gold", str(path), "--person", "parts", stdout=out)
    text_report = out.getvalue()
    assert "PERSON compared as name parts (parts)" in text_report
    assert "PERSON as whole mentions" in text_report and "PERSON as name parts" in text_report


class GreetingAsTime(Detector):
    """Stands in for a statistical model that calls a greeting a time (as spaCy does);
    "Good morning" is on the seeded allow-list."""

    name = "spacy"
    labels = frozenset({"TIME"})

    def detect(self, document):
        start = document.text.index("Good morning")
        return [Detection(start, start + 12, "TIME", 0.85, self.name)]


def test_evaluate_says_which_member_found_a_mention_left_in_clear_and_which_rule_dropped_it(
    settings, gold_file
):
    settings.DETECTORS = [
        *LIGHT,
        {"NAME": "tests.test_command_evaluate.GreetingAsTime", "OPTIONS": {}},
    ]
    out = StringIO()
    call_command("evaluate", "--gold", str(gold_file), "--json", stdout=out)
    clear = json.loads(out.getvalue())["left_in_clear"]
    (morning,) = clear["list"]
    assert (morning["text"], morning["label"]) == ("morning", "TIME")
    assert morning["why"] == "dropped: spacy/allow-list"
    assert [(d["detector"], d["outcome"], d["rule"]) for d in morning["found_by"]] == [
        ("spacy", "dropped", "allow-list")
    ]
    assert clear["why"] == {"dropped: spacy/allow-list": 1}
    out = StringIO()
    call_command("evaluate", "--gold", str(gold_file), stdout=out)
    assert "'morning': dropped: spacy/allow-list" in out.getvalue()


def test_evaluate_says_not_found_when_no_member_proposed_the_words(settings, gold_file):
    settings.DETECTORS = LIGHT
    out = StringIO()
    call_command("evaluate", "--gold", str(gold_file), "--json", stdout=out)
    clear = json.loads(out.getvalue())["left_in_clear"]
    assert [(m["text"], m["why"], m["found_by"]) for m in clear["list"]] == [
        ("morning", "not found", [])
    ]
