import hashlib
import io
import json
import zipfile

import pytest
from django.core.management import call_command
from django.urls import reverse

from annotations.models import Span
from annotations.services.entities import entities_assign
from annotations.services.export import gold_export, key_build, release_build
from annotations.services.leaks import LeakError
from anonreview.core.models import AuditEvent
from engine.gold import parse_doc
from tests.factories import make_transcript

pytestmark = pytest.mark.django_db

TEXT = (
    "INMATE QUILL: My name is Jonah Quill, Q-U-I-L-L.\nPRESIDING COMMISSIONER ALDEN: Thank you.\n"
)


def reviewed(**kwargs):
    t = make_transcript(TEXT, metadata={"incarcerated_person": "Jonah Quill"}, **kwargs)
    t.original_name = "Quill, V12345, 2012-05-13.pdf"
    t.save(update_fields=["original_name"])
    for needle, label, nth in [
        ("QUILL", "PERSON", 1),
        ("Jonah", "PERSON", 1),
        ("Quill", "PERSON", 1),
        ("Q-U-I-L-L", "SPELLED_NAME", 1),
        ("ALDEN", "PERSON", 1),
    ]:
        start = -1
        for _ in range(nth):
            start = t.text.index(needle, start + 1)
        Span.objects.create(
            transcript=t, start=start, end=start + len(needle), label=label, status="accepted"
        )
    entities_assign(transcript=t)
    return t


def test_release_zip_has_pseudonymous_names_manifest_and_no_key(lead):
    t = reviewed(state="approved")
    data = release_build(transcripts=[t], actor=lead)
    zf = zipfile.ZipFile(io.BytesIO(data))
    assert sorted(zf.namelist()) == ["manifest.json", f"transcript-{t.pk}.txt"]
    text = zf.read(f"transcript-{t.pk}.txt").decode()
    assert text == (
        "INMATE [PERSON_1]: My name is [PERSON_2] [PERSON_1], [SPELLED_NAME_PERSON_1].\n"
        "PRESIDING COMMISSIONER [PERSON_3]: Thank you.\n"
    )
    manifest = json.loads(zf.read("manifest.json"))
    entry = manifest["files"][0]
    assert entry["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    everything = b"".join(zf.read(n) for n in zf.namelist()).decode()
    for secret in ("Quill", "V12345", "Jonah", "QUILL", "2012-05-13"):
        assert secret not in everything
    assert AuditEvent.objects.filter(transcript=t, event_type="release_exported").exists()


def test_release_is_blocked_by_a_leak_and_lists_it(lead):
    t = reviewed(state="approved")
    Span.objects.filter(transcript=t, label="SPELLED_NAME").update(status="rejected")
    with pytest.raises(LeakError) as excinfo:
        release_build(transcripts=[t], actor=lead)
    leaks = excinfo.value.leaks[t.pk]
    assert [(x.kind, x.label) for x in leaks] == [("spelled", "PERSON")]
    assert not AuditEvent.objects.filter(event_type="release_exported").exists()


def test_key_maps_originals_to_pseudonyms(lead):
    t = reviewed(state="approved")
    key = json.loads(key_build(transcripts=[t], actor=lead))
    entities = key["transcripts"][0]["entities"]
    assert entities["PERSON_1"]["originals"] == ["QUILL", "Quill"]
    assert entities["SPELLED_NAME_PERSON_1"]["pseudonym"] == "[SPELLED_NAME_PERSON_1]"
    assert AuditEvent.objects.filter(transcript=t, event_type="key_exported").count() == 1


def test_gold_jsonl_conll_spacy_and_svala_give_whole_mentions_by_default(lead):
    t = reviewed(state="approved")
    doc = parse_doc(json.loads(gold_export(transcripts=[t], fmt="jsonl", actor=lead)))
    assert [t.text[s.start : s.end] for s in doc.spans] == [
        "QUILL",
        "Jonah Quill",
        "Q-U-I-L-L",
        "ALDEN",
    ]
    assert doc.meta["mentions"] == "whole"
    refs = doc.meta["refs"]
    jonah = t.text.index("Jonah")
    assert refs[f"{jonah}:{jonah + 11}:PERSON"] == "PERSON_2 PERSON_1"
    conll = gold_export(transcripts=[t], fmt="conll", actor=lead).decode()
    assert "Jonah\tB-PERSON\nQuill\tI-PERSON\n,\tO" in conll
    assert "Q\tB-SPELLED_NAME\n-\tI-SPELLED_NAME" in conll
    assert "L\tI-SPELLED_NAME\n.\tO" in conll  # the full stop stays outside
    assert conll.startswith(
        f"-DOCSTART- -X- O O\n# id = transcript-{t.pk}\n# transcript = {t.pk}\n"
        f"# title = {t.title}\n\nINMATE\tO\n"
    )
    import spacy
    from spacy.tokens import DocBin

    docs = list(
        DocBin()
        .from_bytes(gold_export(transcripts=[t], fmt="spacy", actor=lead))
        .get_docs(spacy.blank("en").vocab)
    )
    assert [e.text for e in docs[0].ents] == ["QUILL", "Jonah Quill", "Q-U-I-L-L", "ALDEN"]
    assert docs[0].user_data["id"] == f"transcript-{t.pk}"
    assert docs[0].user_data["title"] == t.title
    svala = json.loads(gold_export(transcripts=[t], fmt="svala", actor=lead))[0]
    assert (svala["id"], svala["transcript"], svala["title"]) == (
        f"transcript-{t.pk}",
        t.pk,
        t.title,
    )
    assert "".join(tok["text"] for tok in svala["source"]) == t.text
    target = "".join(tok["text"] for tok in svala["target"])
    assert target.startswith("INMATE [PERSON_1]: My name is [PERSON_2] [PERSON_1],")
    labelled = [e for e in svala["edges"].values() if e["labels"]]
    assert ["PERSON", "PERSON_1"] in [e["labels"] for e in labelled]
    assert ["PERSON", "PERSON_2 PERSON_1"] in [e["labels"] for e in labelled]
    assert all(any(i.startswith("s") for i in e["ids"]) for e in labelled)
    assert AuditEvent.objects.filter(event_type="gold_exported").count() == 4


def test_gold_with_name_parts_keeps_the_stored_parts(lead):
    t = reviewed(state="approved")
    data = gold_export(transcripts=[t], fmt="jsonl", actor=lead, name_parts=True)
    doc = parse_doc(json.loads(data))
    assert [t.text[s.start : s.end] for s in doc.spans] == [
        "QUILL",
        "Jonah",
        "Quill",
        "Q-U-I-L-L",
        "ALDEN",
    ]
    assert doc.meta["mentions"] == "name_parts"
    conll = gold_export(transcripts=[t], fmt="conll", actor=lead, name_parts=True).decode()
    assert "Jonah\tB-PERSON\nQuill\tB-PERSON" in conll
    event = AuditEvent.objects.filter(event_type="gold_exported").latest("pk")
    assert event.after == {"format": "conll", "name_parts": True}


def test_gold_spans_never_end_on_a_sentence_full_stop(lead):
    t = make_transcript("A: It is spelled P-E-R-R-Y. At 9:45 a.m. we met Acme Inc.\n")
    t.state = "approved"
    t.save(update_fields=["state"])
    for needle, label in [
        ("P-E-R-R-Y.", "SPELLED_NAME"),
        ("9:45 a.m.", "TIME"),
        ("Acme Inc.", "ORGANIZATION"),
    ]:
        start = t.text.index(needle)
        Span.objects.create(
            transcript=t, start=start, end=start + len(needle), label=label, status="added"
        )
    doc = parse_doc(json.loads(gold_export(transcripts=[t], fmt="jsonl", actor=lead)))
    assert [t.text[s.start : s.end] for s in doc.spans] == ["P-E-R-R-Y", "9:45 a.m.", "Acme Inc."]
    import spacy
    from spacy.tokens import DocBin

    (sdoc,) = (
        DocBin()
        .from_bytes(gold_export(transcripts=[t], fmt="spacy", actor=lead))
        .get_docs(spacy.blank("en").vocab)
    )
    assert [e.text for e in sdoc.ents] == ["P-E-R-R-Y", "9:45 a.m.", "Acme Inc."]


def test_export_gold_command_writes_approved_transcripts(tmp_path):
    reviewed(state="approved")
    reviewed(state="in_review")
    out = tmp_path / "gold.jsonl"
    call_command("export_gold", "--format", "jsonl", "--out", str(out))
    assert len(out.read_text().splitlines()) == 1
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="only of approved or released"):
        call_command(
            "export_gold", "--format", "conll", "--out", str(tmp_path / "g.conll"), "--state", "all"
        )
    assert not (tmp_path / "g.conll").exists()


def test_annotator_may_not_download_keys_or_open_the_export_page(client, annotator):
    t = reviewed(assignees=[annotator])
    client.force_login(annotator)
    assert client.get(reverse("annotations:export")).status_code == 403
    assert client.post(reverse("annotations:export-key-one", args=[t.pk])).status_code == 403
    assert (
        client.post(reverse("annotations:export-key"), {"transcripts": [t.pk]}).status_code == 403
    )
    assert client.post(reverse("annotations:export-release-text", args=[t.pk])).status_code == 403


def test_lead_export_page_and_downloads(client, lead):
    t = reviewed(state="approved")
    client.force_login(lead)
    page = client.get(reverse("annotations:export"))
    assert page.status_code == 200
    assert f'data-transcript-id="{t.pk}"' in page.content.decode()
    assert "Quill" not in page.content.decode()
    text = client.post(reverse("annotations:export-release-text", args=[t.pk]))
    assert text["Content-Disposition"] == f'attachment; filename="transcript-{t.pk}.txt"'
    assert b"[SPELLED_NAME_PERSON_1]" in text.content
    zipped = client.post(reverse("annotations:export-release-zip"), {"transcripts": [t.pk]})
    assert zipfile.ZipFile(io.BytesIO(zipped.content)).namelist()[0] == f"transcript-{t.pk}.txt"
    key = client.post(reverse("annotations:export-key"), {"transcripts": [t.pk]})
    assert key.status_code == 200 and b"Q-U-I-L-L" in key.content
    gold = client.post(reverse("annotations:export-gold"), {"format": "conll", "scope": "all"})
    assert gold.status_code == 200 and b"B-PERSON" in gold.content


def test_release_download_with_a_leak_shows_the_leaks(client, lead):
    t = reviewed(state="approved")
    Span.objects.filter(transcript=t, label="SPELLED_NAME").update(status="rejected")
    client.force_login(lead)
    response = client.post(reverse("annotations:export-release-text", args=[t.pk]))
    assert response.status_code == 409
    assert b'class="leak"' in response.content


# --- the release gate ------------------------------------------


@pytest.mark.parametrize("state", ["ready", "in_review", "submitted", "returned", "imported"])
def test_release_text_of_a_transcript_not_approved_is_refused_with_a_sentence(client, lead, state):
    t = reviewed(state=state)
    client.force_login(lead)
    for strategy in ("tags", "surrogate", "mask", "redact"):
        response = client.post(
            reverse("annotations:export-release-text", args=[t.pk]), {"strategy": strategy}
        )
        assert response.status_code == 409
        body = response.content.decode()
        assert "only approved or released transcripts can be exported" in body
        assert "Jonah" not in body and "QUILL" not in body
    zipped = client.post(reverse("annotations:export-release-zip"), {"transcripts": [t.pk]})
    assert zipped.status_code == 409 and b"Jonah" not in zipped.content
    key = client.post(reverse("annotations:export-key-one", args=[t.pk]))
    assert key.status_code == 409 and b"Jonah" not in key.content
    assert not AuditEvent.objects.filter(
        event_type__in=["release_exported", "key_exported"]
    ).exists()


def test_release_zip_with_one_unapproved_transcript_exports_nothing(client, lead):
    approved = reviewed(state="approved")
    ready = reviewed(state="ready")
    client.force_login(lead)
    response = client.post(
        reverse("annotations:export-release-zip"), {"transcripts": [approved.pk, ready.pk]}
    )
    assert response.status_code == 409
    assert f"Transcript {ready.pk} is ready for review" in response.content.decode()
    assert not AuditEvent.objects.filter(event_type="release_exported").exists()


def test_release_services_refuse_unapproved_transcripts_and_copies(lead):
    from annotations.services.export import NotReleasable, release_text

    ready = reviewed(state="ready")
    with pytest.raises(NotReleasable):
        release_text(transcript=ready)
    with pytest.raises(NotReleasable):
        release_build(transcripts=[ready], actor=lead)
    with pytest.raises(NotReleasable):
        key_build(transcripts=[ready], actor=lead)
    original = reviewed(state="approved")
    copy = reviewed(state="approved")
    copy.double_of = original
    copy.save(update_fields=["double_of"])
    with pytest.raises(NotReleasable, match="second annotation"):
        release_build(transcripts=[copy], actor=lead)


def test_release_of_a_double_annotation_copy_is_refused_by_the_views(client, lead):
    original = reviewed(state="approved")
    copy = reviewed(state="approved")
    copy.double_of = original
    copy.save(update_fields=["double_of"])
    client.force_login(lead)
    response = client.post(reverse("annotations:export-release-text", args=[copy.pk]))
    assert response.status_code == 409 and b"second annotation" in response.content
    page = client.get(reverse("annotations:export")).content.decode()
    assert f'data-transcript-id="{original.pk}"' in page
    assert f'data-transcript-id="{copy.pk}"' not in page


def test_export_page_offers_only_approved_and_released_transcripts(client, lead):
    shown = [reviewed(state="approved"), reviewed(state="released")]
    hidden = [reviewed(state=s) for s in ("ready", "in_review", "submitted", "returned")]
    client.force_login(lead)
    page = client.get(reverse("annotations:export")).content.decode()
    for t in shown:
        assert f'data-transcript-id="{t.pk}"' in page
    for t in hidden:
        assert f'data-transcript-id="{t.pk}"' not in page
        assert reverse("annotations:export-release-text", args=[t.pk]) not in page


def test_downloads_are_post_only(client, lead):
    t = reviewed(state="approved")
    client.force_login(lead)
    for url in (
        reverse("annotations:export-release-text", args=[t.pk]),
        reverse("annotations:export-key-one", args=[t.pk]),
        reverse("annotations:export-gold") + "?format=jsonl",
    ):
        assert client.get(url).status_code == 405
    assert not AuditEvent.objects.filter(event_type__endswith="_exported").exists()


def test_key_download_writes_its_audit_row_when_served(client, lead):
    t = reviewed(state="approved")
    client.force_login(lead)
    response = client.post(reverse("annotations:export-key-one", args=[t.pk]))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    event = AuditEvent.objects.get(event_type="key_exported")
    assert event.transcript_id == t.pk and event.actor_username == lead.username


def test_gold_export_defaults_to_approved_and_flags_copies_only_on_request(client, lead):
    approved = reviewed(state="approved")
    reviewed(state="in_review")
    copy = reviewed(state="approved")
    copy.double_of = approved
    copy.save(update_fields=["double_of"])
    client.force_login(lead)
    data = client.post(reverse("annotations:export-gold"), {"format": "jsonl", "scope": "all"})
    docs = [json.loads(line) for line in data.content.decode().splitlines()]
    assert [d["meta"]["transcript"] for d in docs] == [approved.pk]
    assert "double_annotation_copy" not in docs[0]["meta"]
    data = client.post(
        reverse("annotations:export-gold"),
        {"format": "jsonl", "scope": "all", "include_copies": "1"},
    )
    docs = {
        json.loads(line)["meta"]["transcript"]: json.loads(line)
        for line in data.content.decode().splitlines()
    }
    assert set(docs) == {approved.pk, copy.pk}
    assert docs[copy.pk]["meta"]["double_annotation_copy"] is True
    assert docs[copy.pk]["meta"]["double_of"] == approved.pk
    selected = client.post(
        reverse("annotations:export-gold"), {"format": "jsonl", "transcripts": [copy.pk]}
    )
    assert selected.status_code == 409  # a copy is never exported unless asked


def test_export_gold_command_leaves_copies_out_unless_asked(tmp_path):
    approved = reviewed(state="approved")
    copy = reviewed(state="approved")
    copy.double_of = approved
    copy.save(update_fields=["double_of"])
    out = tmp_path / "gold.jsonl"
    call_command("export_gold", "--format", "jsonl", "--out", str(out))
    assert len(out.read_text().splitlines()) == 1
    call_command("export_gold", "--format", "jsonl", "--out", str(out), "--include-copies")
    metas = [json.loads(line)["meta"] for line in out.read_text().splitlines()]
    assert [m.get("double_annotation_copy", False) for m in metas] == [False, True]


def _split_parts(folder):
    return {
        name: [
            json.loads(line)["id"] for line in (folder / f"{name}.jsonl").read_text().splitlines()
        ]
        for name in ("train", "dev", "test")
    }


def test_export_gold_split_is_seeded_by_transcript_with_a_datasheet(tmp_path):
    originals = [reviewed(state="approved") for _ in range(10)]
    copy = reviewed(state="approved")
    copy.double_of = originals[0]
    copy.save(update_fields=["double_of"])
    args = ["export_gold", "--format", "jsonl", "--split", "80,10,10", "--include-copies"]
    call_command(*args, "--seed", "3", "--out", str(tmp_path / "a"))
    call_command(*args, "--seed", "3", "--out", str(tmp_path / "b"))
    call_command(*args, "--seed", "4", "--out", str(tmp_path / "c"))
    a, b, c = (_split_parts(tmp_path / x) for x in "abc")
    assert a == b and a != c
    assert [len(a[name]) for name in ("train", "dev", "test")] in ([9, 1, 1], [8, 2, 1], [8, 1, 2])
    part_of_original = next(n for n, ids in a.items() if f"transcript-{originals[0].pk}" in ids)
    assert f"transcript-{copy.pk}" in a[part_of_original]  # the copy goes with its original
    sheet = json.loads((tmp_path / "a" / "datasheet.json").read_text())
    assert sheet["split"] == {"by": "transcript", "ratios": [80, 10, 10], "seed": 3}
    assert sheet["mentions"] == "whole"
    assert sheet["total"]["documents"] == 11
    assert sheet["total"]["labels"] == {"PERSON": 33, "SPELLED_NAME": 11}
    assert sheet["parts"]["dev"]["ids"] == a["dev"]
    assert sheet["states"] == {"approved": 11} and sheet["sources"] == {"txt": 11}
    assert sheet["by_state"]["approved"]["labels"] == {"PERSON": 33, "SPELLED_NAME": 11}
    assert sheet["by_source"]["txt"]["documents"] == 11
    assert sheet["double_annotation_copies"] == 1
    assert sheet["provenance"]["spans"]["accepted_changed"] == 55  # no proposals: hand-made
    assert sheet["agreement"]["pairs"] == [{"original": originals[0].pk, "copy": copy.pk}]
    assert sheet["agreement"]["span"]["f1"] == 1.0
    assert sheet["agreement"]["references"][0]["value"] == 0.86
    readme = (tmp_path / "a" / "README.md").read_text()
    assert "seed 3" in readme and "| dev |" in readme
    assert "Jonah" not in json.dumps(sheet) + readme


def test_export_gold_split_to_a_zip_and_bad_ratios_refused(tmp_path):
    from django.core.management import CommandError

    for _ in range(3):
        reviewed(state="approved")
    out = tmp_path / "gold.zip"
    call_command(
        "export_gold", "--format", "spacy", "--split", "1,1,1", "--seed", "0", "--out", str(out)
    )
    with zipfile.ZipFile(out) as zf:
        assert sorted(zf.namelist()) == sorted(
            ["train.spacy", "dev.spacy", "test.spacy", "datasheet.json", "README.md", "config.cfg"]
        )  # config.cfg: what `spacy train` reads beside the DocBins
    with pytest.raises(CommandError, match="80,10,10"):
        call_command("export_gold", "--format", "jsonl", "--split", "80,20", "--out", str(out))


def test_web_gold_export_whole_by_default_name_parts_on_request_and_split_as_a_zip(client, lead):
    t = reviewed(state="approved")
    reviewed(state="approved")
    client.force_login(lead)
    url = reverse("annotations:export-gold")
    page = client.get(reverse("annotations:export")).content.decode()
    assert 'name="name_parts"' in page and 'name="split"' in page

    def texts(response):
        doc = json.loads(response.content.decode().splitlines()[0])
        return [doc["text"][s["start"] : s["end"]] for s in doc["spans"]]

    assert "Jonah Quill" in texts(client.post(url, {"format": "jsonl", "scope": "all"}))
    parts = texts(client.post(url, {"format": "jsonl", "scope": "all", "name_parts": "1"}))
    assert "Jonah" in parts and "Jonah Quill" not in parts
    response = client.post(
        url, {"format": "conll", "scope": "all", "split": "50,50,0", "seed": "1"}
    )
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.content)) as zf:
        sheet = json.loads(zf.read("datasheet.json"))
        assert zf.read("test.conll") == b"\n"  # 0 %: an empty part
    assert sheet["parts"]["train"]["documents"] == 1 == sheet["parts"]["dev"]["documents"]
    assert f"transcript-{t.pk}" in sheet["parts"]["train"]["ids"] + sheet["parts"]["dev"]["ids"]
    bad = client.post(url, {"format": "jsonl", "scope": "all", "split": "a,b,c"})
    assert bad.status_code == 400
