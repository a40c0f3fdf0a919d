"""``manage.py leak_report``: names left in clear, domain terms lost, possible misses per
1,000 words; nothing written."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from engine.detectors.base import Detection, Detector

pytestmark = pytest.mark.django_db

LIGHT = [
    {"NAME": "engine.detectors.patterns.PatternDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.cover.CoverPageDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.safety_net.SafetyNetDetector", "OPTIONS": {}},
]

TEXT = (
    "THE COURT: Good morning.\n"
    "MR. LONG: Good morning, Your Honor. The Supreme Court held it, and Zyranthe agreed.\n"
    "THE COURT: Mr. Quillfeather, the Internal Revenue Code applies under the Legal Status "
    "Summary.\n"
)


def run(settings, tmp_path, *args):
    settings.DETECTORS = LIGHT
    path = tmp_path / "court.txt"
    path.write_text(TEXT, encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    out = StringIO()
    call_command("leak_report", str(path), *args, stdout=out)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # writes nothing
    return out.getvalue()


def test_leak_report_json_counts_names_in_clear_terms_kept_and_misses(settings, tmp_path):
    report = json.loads(run(settings, tmp_path, "--json"))
    (item,) = report["files"]
    # LONG and Quillfeather are PERSON (speaker tag, honorific); Zyranthe is a possible miss
    assert [d["word"] for d in item["name_shaped_in_clear"]] == ["Zyranthe"]
    assert item["direct_in_clear_occurrences"] == 0
    assert item["direct_unflagged_occurrences"] == 0
    assert item["possible_misses"] == 1
    assert item["possible_misses_per_1000_words"] == round(1000 / item["words"], 2)
    # Supreme Court, Internal Revenue Code, Legal Status Summary all survive
    assert item["domain_terms"] == 3 and item["domain_terms_lost"] == 0
    assert report["total"]["domain_terms_surviving"] == 1.0


def test_leak_report_text_names_each_file_and_its_figures(settings, tmp_path):
    out = run(settings, tmp_path)
    assert "court.txt" in out
    assert "possible misses: 1" in out and "domain terms: 3, lost 0 (100.0% survive)" in out


def test_without_the_safety_net_a_name_left_in_clear_is_counted_unflagged(settings, tmp_path):
    settings.DETECTORS = LIGHT
    path = tmp_path / "list.txt"
    path.write_text("THE COURT: The letters came from Michael today.\n", encoding="utf-8")
    out = StringIO()
    call_command("leak_report", str(path), "--json", "--detectors", "patterns", stdout=out)
    (item,) = json.loads(out.getvalue())["files"]
    assert item["direct_in_clear_occurrences"] == 1  # Michael: a gazetteer given name
    assert item["direct_unflagged_occurrences"] == 1  # and no possible miss covers it
    out = StringIO()
    call_command("leak_report", str(path), "--json", stdout=out)
    (item,) = json.loads(out.getvalue())["files"]
    assert (item["direct_in_clear_occurrences"], item["direct_unflagged_occurrences"]) == (1, 0)


class NameAsDate(Detector):
    """Stands in for a statistical model that calls a given name a date."""

    name = "spacy"
    labels = frozenset({"DATE"})

    def detect(self, document):
        start = document.text.index("Michael")
        return [Detection(start, start + 7, "DATE", 0.85, self.name)]


def test_leak_report_says_which_member_found_a_name_in_clear_and_which_rule_dropped_it(
    settings, tmp_path
):
    settings.DETECTORS = [*LIGHT, {"NAME": "tests.test_command_leak_report.NameAsDate"}]
    path = tmp_path / "list.txt"
    path.write_text("THE COURT: The letters came from Michael today.\n", encoding="utf-8")
    out = StringIO()
    call_command("leak_report", str(path), "--json", "--detectors", "patterns,spacy", stdout=out)
    (item,) = json.loads(out.getvalue())["files"]
    (michael,) = item["direct_in_clear"]
    assert michael["word"] == "Michael"
    assert michael["found_by"] == {"spacy DATE date-no-anchor": 1}
    assert item["dropped_by_rule"] == {"spacy/date-no-anchor": 1}
    out = StringIO()
    call_command("leak_report", str(path), "--detectors", "patterns,spacy", stdout=out)
    assert "Michael ×1 (" in out.getvalue() and "spacy DATE date-no-anchor ×1" in out.getvalue()
