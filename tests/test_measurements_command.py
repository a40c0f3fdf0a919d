"""``manage.py measure``: the dashboard's figures on the command line."""

import io
import json

from django.core.management import call_command

from annotations.services import measurements
from tests.factories import make_suggestion, make_transcript
from transcripts.models import Transcript


def approved_transcript():
    t = make_transcript("ALDEN: Mr. Quill lives here.\n", state=Transcript.State.APPROVED)
    for word, status in (("ALDEN", "accepted"), ("Quill", "accepted"), ("lives", "rejected")):
        start = t.text.index(word)
        make_suggestion(t, start, start + len(word), "PERSON", score=1.0, status=status)
    return t


def test_measure_prints_the_snapshot_as_json_and_saves_it(db):
    approved_transcript()
    out = io.StringIO()
    call_command("measure", "--no-ablation", "--json", "--save", stdout=out)
    snapshot = json.loads(out.getvalue())
    assert snapshot["table3"]["overall"]["exact"]["tp"] == 2
    assert snapshot["table3"]["overall"]["exact"]["fp"] == 1
    assert snapshot["table8"]["available"] is False
    assert measurements.dashboard_latest().result["table3"] == snapshot["table3"]


def test_measure_prints_readable_tables(db):
    approved_transcript()
    out = io.StringIO()
    call_command("measure", "--no-ablation", stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert "Table 3" in text and "overall\texact\t0.667\t1.000\t0.800\t2\t1\t0" in text
    assert "not available" in text
