"""Gold data leaves under the release rule on every entry point:
the ``export_gold`` command, the Export page and the services refuse
anything not approved or released, name who exported, bound the split's seed; the
datasheet's ``tokens`` are the exported files' tokens and its reviewers are counted
truthfully; ``--include-copies`` adds the submitted second annotations."""

import json
import zipfile
from io import StringIO

import pytest
import spacy
from django.core.management import CommandError, call_command
from django.urls import reverse
from spacy.tokens import DocBin

from annotations.models import Span
from annotations.services import export
from anonreview.core.models import AuditEvent
from engine.synthetic import generate_hearing, render_pdf_bytes
from tests.factories import make_transcript, make_user
from transcripts.models import Transcript

pytestmark = pytest.mark.django_db

TEXT = (
    "INMATE QUILL: My name is Jonah Quill, Q-U-I-L-L.\n"
    "PRESIDING COMMISSIONER ALDEN: Thank you.\n\n"
    "INMATE QUILL: I lived in Fresno.\n"
)


def reviewed(state="approved", *, double_of=None, reviewer=None):
    """A transcript whose spans are all decided (accepted), in ``state``."""
    t = make_transcript(TEXT, state=state, metadata={"incarcerated_person": "Jonah Quill"})
    for needle in ("QUILL", "Jonah Quill", "Q-U-I-L-L", "ALDEN", "Fresno"):
        start = t.text.index(needle)
        label = {"Q-U-I-L-L": "SPELLED_NAME", "Fresno": "LOCATION"}.get(needle, "PERSON")
        Span.objects.create(
            transcript=t,
            start=start,
            end=start + len(needle),
            label=label,
            status="accepted",
            reviewer=reviewer,
        )
    if double_of is not None:
        t.double_of = double_of
        t.save(update_fields=["double_of"])
    return t


def export_gold(*args) -> str:
    out = StringIO()
    call_command("export_gold", *args, stdout=out)
    return out.getvalue()


# The command line exported transcripts nobody approved.


def test_export_gold_of_an_imported_unannotated_transcript_is_refused_and_writes_nothing(
    tmp_path,
):
    """As the issue tried it: import a hearing without annotation, export ``--state
    imported``: the incarcerated person's name in clear, every token O."""
    hearing = generate_hearing(11, words=600)
    pdf = tmp_path / "syn1.pdf"
    pdf.write_bytes(render_pdf_bytes(hearing))
    call_command("import_transcripts", str(pdf), "--no-annotate", stdout=StringIO())
    imported = Transcript.objects.get()
    assert imported.state == Transcript.State.IMPORTED
    out = tmp_path / "g.conll"
    with pytest.raises(CommandError, match="refused: gold data leaves only of approved"):
        export_gold("--format", "conll", "--out", str(out), "--state", "imported")
    assert not out.exists()
    assert not AuditEvent.objects.filter(event_type="gold_exported").exists()
    # The default (approved) finds nothing to export: an empty file, no transcript in it.
    export_gold("--format", "conll", "--out", str(out))
    assert out.read_bytes() == b"\n"


@pytest.mark.parametrize("state", ["returned", "submitted", "in_review", "ready", "all"])
def test_export_gold_command_refuses_every_state_but_approved_and_released(tmp_path, state):
    reviewed(state=state if state != "all" else "returned")
    out = tmp_path / "gold"
    for args in ([], ["--split", "80,10,10"]):
        with pytest.raises(CommandError, match="nothing was written"):
            export_gold("--format", "jsonl", "--out", str(out), "--state", state, *args)
    assert not out.exists()
    assert not AuditEvent.objects.filter(event_type="gold_exported").exists()


@pytest.mark.parametrize("state", ["imported", "returned", "submitted", "ready"])
def test_the_gold_services_refuse_a_transcript_not_approved_whoever_calls(lead, state):
    t = reviewed(state=state)
    with pytest.raises(export.NotReleasable, match="only of approved or released"):
        export.gold_export(transcripts=[t], fmt="jsonl", actor=lead)
    with pytest.raises(export.NotReleasable, match="only of approved or released"):
        export.gold_export_split(transcripts=[t], fmt="jsonl", actor=lead, ratios=(1, 1, 1), seed=0)
    with pytest.raises(export.NotReleasable, match="have not been approved"):
        export.gold_transcripts(state=state)
    assert not AuditEvent.objects.filter(event_type="gold_exported").exists()


def test_the_gold_service_reads_the_state_afresh(lead):
    """A stale object that still says approved does not carry a returned transcript out."""
    t = reviewed(state="approved")
    Transcript.objects.filter(pk=t.pk).update(state="returned")
    with pytest.raises(export.NotReleasable, match="is returned"):
        export.gold_export(transcripts=[t], fmt="conll", actor=lead)


def test_export_gold_names_the_os_user_or_the_actor_in_the_audit_row(tmp_path, monkeypatch):
    t = reviewed(state="approved")
    monkeypatch.setattr("getpass.getuser", lambda: "operator7")
    export_gold("--format", "jsonl", "--out", str(tmp_path / "a.jsonl"))
    event = AuditEvent.objects.get(event_type="gold_exported")
    assert event.transcript_id == t.pk and event.actor_username == "os:operator7"
    user = make_user("researcher", role="lead")
    export_gold("--format", "jsonl", "--out", str(tmp_path / "b.jsonl"), "--actor", "researcher")
    latest = AuditEvent.objects.filter(event_type="gold_exported").order_by("-pk").first()
    assert latest.actor_id == user.pk and latest.actor_username == "researcher"
    with pytest.raises(CommandError, match="no such user"):
        export_gold("--format", "jsonl", "--out", str(tmp_path / "c.jsonl"), "--actor", "nobody")
    assert not (tmp_path / "c.jsonl").exists()


def test_export_gold_released_and_releasable_states(tmp_path):
    approved, released = reviewed(state="approved"), reviewed(state="released")
    reviewed(state="submitted")

    def ids(state):
        out = tmp_path / f"{state}.jsonl"
        export_gold("--format", "jsonl", "--out", str(out), "--state", state)
        return [json.loads(line)["meta"]["transcript"] for line in out.read_text().splitlines()]

    assert ids("approved") == [approved.pk]
    assert ids("released") == [released.pk]
    assert ids("releasable") == [approved.pk, released.pk]


# --include-copies alone added nothing (copies are never approved).


def test_include_copies_exports_the_submitted_second_annotations_of_approved_transcripts(
    tmp_path,
):
    original = reviewed(state="approved")
    copy = reviewed(state="submitted", double_of=original)
    reviewed(state="in_review", double_of=reviewed(state="approved"))  # not submitted: left out
    unapproved = reviewed(state="submitted")
    reviewed(state="submitted", double_of=unapproved)  # a copy of an unapproved original
    out = tmp_path / "gold.jsonl"
    export_gold("--format", "jsonl", "--out", str(out), "--include-copies")
    metas = {json.loads(x)["meta"]["transcript"]: json.loads(x)["meta"] for x in open(out)}
    assert copy.pk in metas and unapproved.pk not in metas
    assert metas[copy.pk]["double_annotation_copy"] is True
    assert metas[copy.pk]["double_of"] == original.pk
    assert "double_annotation_copy" not in metas[original.pk]
    assert len(metas) == 3  # two approved originals and the one submitted copy
    event = AuditEvent.objects.get(event_type="gold_exported", transcript=copy)
    assert event.after["double_of"] == original.pk


def test_a_copy_whose_original_is_not_approved_is_refused_by_the_service(lead):
    original = reviewed(state="submitted")
    copy = reviewed(state="submitted", double_of=original)
    with pytest.raises(export.NotReleasable, match="leaves only with an approved or released"):
        export.gold_export(transcripts=[copy], fmt="jsonl", actor=lead)
    unsubmitted = reviewed(state="in_review", double_of=reviewed(state="approved"))
    with pytest.raises(export.NotReleasable, match="once its annotator has submitted it"):
        export.gold_export(transcripts=[unsubmitted], fmt="jsonl", actor=lead)


def test_the_export_page_with_include_copies_adds_the_copies_of_the_selected_transcripts(
    client, lead
):
    original = reviewed(state="approved")
    copy = reviewed(state="submitted", double_of=original)
    client.force_login(lead)
    response = client.post(
        reverse("annotations:export-gold"),
        {"format": "jsonl", "transcripts": [original.pk], "include_copies": "1"},
    )
    assert response.status_code == 200
    ids = [json.loads(line)["meta"]["transcript"] for line in response.content.splitlines()]
    assert ids == [original.pk, copy.pk]


# A 5,000-digit seed got Python's own message.


def test_a_huge_seed_on_the_command_is_refused_with_our_sentence(tmp_path):
    reviewed(state="approved")
    for seed in ("9" * 5000, "-1", "4294967296", "1e3"):
        with pytest.raises(CommandError) as exc:
            export_gold(
                "--format", "jsonl", "--split", "80,10,10", "--seed", seed,
                "--out", str(tmp_path / "g"),
            )  # fmt: skip
        message = str(exc.value)
        assert "seed must be a whole number from 0 to 4294967295" in message
        assert "digits" not in message and len(message) < 200
    assert not (tmp_path / "g").exists()
    export_gold(
        "--format", "jsonl", "--split", "80,10,10", "--seed", "4294967295",
        "--out", str(tmp_path / "g"),
    )  # fmt: skip
    assert json.loads((tmp_path / "g" / "datasheet.json").read_text())["split"]["seed"] == (
        4294967295
    )


def test_a_huge_seed_on_the_export_page_is_refused_with_our_sentence(client, lead):
    reviewed(state="approved")
    client.force_login(lead)
    response = client.post(
        reverse("annotations:export-gold"),
        {"format": "jsonl", "scope": "all", "split": "80,10,10", "seed": "7" * 5000},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert body == "The split's seed must be a whole number from 0 to 4294967295, e.g. 0 or 42."


def test_the_split_service_refuses_a_seed_out_of_bounds(lead):
    t = reviewed(state="approved")
    for seed in (-1, 2**32, 10**5000, "3"):
        with pytest.raises(ValueError, match="seed must be a whole number"):
            export.gold_export_split(
                transcripts=[t], fmt="jsonl", actor=lead, ratios=(1, 0, 0), seed=seed
            )


# The datasheet's tokens and reviewers.


def _conll_tokens(data: bytes) -> int:
    return sum(
        1
        for line in data.decode().splitlines()
        if line and not line.startswith(("# ", "-DOCSTART-"))
    )


@pytest.mark.parametrize("fmt", ["conll", "spacy"])
def test_the_datasheets_tokens_are_the_tokens_of_the_exported_files(lead, fmt):
    transcripts = [reviewed(state="approved") for _ in range(3)]
    members = dict(
        export.gold_export_split(
            transcripts=transcripts, fmt=fmt, actor=lead, ratios=(1, 1, 1), seed=5
        )
    )
    sheet = json.loads(members["datasheet.json"])
    assert "spaCy's English tokenizer" in sheet["tokenization"]
    for name in ("train", "dev", "test"):
        part = sheet["parts"][name]
        data = members[f"{name}.{fmt}"]
        if fmt == "conll":
            assert part["tokens"] == _conll_tokens(data) > 0
        else:
            docs = list(DocBin().from_bytes(data).get_docs(spacy.blank("en").vocab))
            assert part["tokens"] + part["whitespace_tokens"] == sum(len(d) for d in docs)
            assert part["tokens"] == sum(1 for d in docs for tok in d if tok.text.strip())
    assert sheet["total"]["tokens"] == sum(sheet["parts"][n]["tokens"] for n in sheet["parts"])


def test_the_datasheet_counts_the_second_annotator_among_the_reviewers(lead, tmp_path):
    first, second = make_user("ann1"), make_user("ann2")
    original = reviewed(state="approved", reviewer=first)
    reviewed(state="submitted", double_of=original, reviewer=second)
    members = dict(
        export.gold_export_split(
            transcripts=[original], fmt="jsonl", actor=lead, ratios=(1, 0, 0), seed=0
        )
    )
    sheet = json.loads(members["datasheet.json"])
    assert sheet["agreement"] is not None  # the second annotator's work is in the sheet
    assert sheet["provenance"]["reviewers"] == 2
    assert sheet["provenance"]["reviewers_of_second_annotations"] == 1
    readme = members["README.md"].decode()
    assert "Reviewers: 2 person(s)" in readme and "1 of them on the second" in readme


def test_export_gold_zip_split_holds_what_the_datasheet_says(tmp_path):
    for _ in range(4):
        reviewed(state="approved")
    out = tmp_path / "gold.zip"
    export_gold("--format", "conll", "--split", "50,50,0", "--seed", "2", "--out", str(out))
    with zipfile.ZipFile(out) as zf:
        sheet = json.loads(zf.read("datasheet.json"))
        for name in ("train", "dev", "test"):
            assert sheet["parts"][name]["tokens"] == _conll_tokens(zf.read(f"{name}.conll"))
