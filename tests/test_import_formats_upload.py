"""The upload page and import_transcripts accept captions, speech-to-text and
reStructuredText files: the form says so, each is imported as a transcript with its
timings as metadata, and ``--dry-run --json`` shows them; the files are the generator's."""

import json
from io import StringIO

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from engine.synthetic.formats import format_document
from transcripts.models import Transcript

LIGHT_DETECTORS = [{"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}}]


def _doc(fmt):
    seed = 7 + ("vtt", "srt", "stt", "rst", "md").index(fmt)
    return format_document(seed, fmt, family="bph", words=600)


def test_the_upload_form_names_and_accepts_the_new_types(client, lead):
    client.force_login(lead)
    html = client.get(reverse("transcripts:upload")).content.decode()
    for suffix in (".rst", ".vtt", ".srt"):
        assert suffix in html.split('accept="', 1)[1].split('"', 1)[0]
    error = client.post(reverse("transcripts:upload"), {}).content.decode()
    assert ".vtt" in error and ".srt" in error and ".rst" in error


def test_uploaded_captions_and_markup_become_transcripts(
    client, lead, settings, django_capture_on_commit_callbacks
):
    settings.DETECTORS = LIGHT_DETECTORS
    client.force_login(lead)
    docs = {fmt: _doc(fmt) for fmt in ("vtt", "srt", "rst")}
    files = [SimpleUploadedFile(f"day{doc.suffix}", doc.content.encode()) for doc in docs.values()]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("transcripts:upload"), {"files": files})
    assert response.status_code == 302
    texts = sorted(t.text for t in Transcript.objects.all())
    assert texts == sorted(doc.gold.text for doc in docs.values())
    vtt = Transcript.objects.get(text=docs["vtt"].gold.text)
    assert vtt.utterances.count() == len(docs["vtt"].turns)


def test_dry_run_json_shows_the_new_formats(db, tmp_path):
    paths = []
    for fmt in ("vtt", "srt", "stt", "rst", "md"):
        doc = _doc(fmt)
        path = tmp_path / f"{fmt}{doc.suffix}"
        path.write_text(doc.content, encoding="utf-8")
        paths.append((str(path), doc))
    out = StringIO()
    call_command("import_transcripts", *[p for p, _ in paths], "--dry-run", "--json", stdout=out)
    files = json.loads(out.getvalue())["files"]
    assert [f["ok"] for f in files] == [True] * 5
    for f, (_, doc) in zip(files, paths, strict=True):
        assert f["text"] == doc.gold.text and f["utterances"] == len(doc.turns) + (
            2 if doc.fmt in ("rst", "md") else 0
        )
        if doc.fmt in ("vtt", "srt", "stt"):
            assert f["layout"]["timestamps"][0]["start"] == doc.times[0]
