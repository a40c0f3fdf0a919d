"""import_transcripts: PATH... [--assign USER] [--dry-run] [--json] (DESIGN.md contract)."""

import io
import json
import zipfile
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from engine.synthetic import generate_hearing, render_pdf_bytes
from tests.factories import make_user
from transcripts.models import Transcript

SPEECH = b"PRESIDING COMMISSIONER ALDEN: Good morning.\nATTORNEY VANCE: Good morning.\n"


@pytest.fixture(scope="module")
def hearing():
    return generate_hearing(5, words=1200)


@pytest.fixture
def folder(tmp_path, hearing):
    (tmp_path / "hearing.pdf").write_bytes(render_pdf_bytes(hearing))
    (tmp_path / "plain.txt").write_bytes(SPEECH)
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really")
    return tmp_path


def run(*args) -> tuple[str, int]:
    out = StringIO()
    try:
        call_command("import_transcripts", *args, stdout=out)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return out.getvalue(), code


def test_dry_run_json_writes_nothing_and_prints_the_contract(db, folder, hearing):
    output, code = run(
        str(folder / "hearing.pdf"), str(folder / "plain.txt"), "--dry-run", "--json"
    )
    assert code == 0
    files = json.loads(output)["files"]
    assert [f["path"].rsplit("/", 1)[-1] for f in files] == ["hearing.pdf", "plain.txt"]
    for f in files:
        assert {"path", "ok", "error", "metadata", "utterances", "text"} <= f.keys()
    pdf = files[0]
    assert pdf["ok"] and pdf["error"] == "" and pdf["text"] == hearing.text
    assert pdf["metadata"] == hearing.metadata
    assert pdf["utterances"] == len(hearing.utterances)
    assert files[1]["utterances"] == 2
    assert not Transcript.objects.exists()


def test_import_with_assign_reports_errors_and_goes_on(db, folder):
    user = make_user("assignee", role="annotator")
    output, code = run(str(folder), "--assign", "assignee", "--json", "--no-annotate")
    files = {f["path"].rsplit("/", 1)[-1]: f for f in json.loads(output)["files"]}
    assert code == 1  # one file failed
    assert not files["broken.pdf"]["ok"] and "damaged" in files["broken.pdf"]["error"]
    assert files["hearing.pdf"]["ok"] and files["plain.txt"]["ok"]
    assert "text" not in files["hearing.pdf"]  # only dry runs print the text
    imported = Transcript.objects.filter(
        pk__in=[f["transcript_id"] for f in files.values() if f["ok"]]
    )
    assert imported.count() == 2 and all(list(t.assignees.all()) == [user] for t in imported)


def test_reimport_is_reported_as_duplicate_not_failure(db, folder):
    run(str(folder / "plain.txt"), "--no-annotate")
    output, code = run(str(folder / "plain.txt"), "--no-annotate")
    assert code == 0 and "SKIP" in output and "Already imported as transcript" in output
    assert Transcript.objects.count() == 1


def test_zip_and_human_output(db, tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("a.txt", SPEECH)
        zf.writestr("../escape.txt", SPEECH)
    (tmp_path / "bad.zip").write_bytes(buf.getvalue())
    output, code = run(str(tmp_path / "bad.zip"), "--no-annotate")
    assert code == 1 and "ERROR" in output and "outside the archive" in output
    assert not Transcript.objects.exists()


def test_unknown_assignee_is_an_error(db, folder):
    with pytest.raises(CommandError, match="No user named"):
        call_command("import_transcripts", str(folder / "plain.txt"), "--assign", "nobody")


def test_load_demo_imports_once_and_assigns_the_demo_annotator(db):
    annotator = make_user("annotator", role="annotator")
    out = StringIO()
    call_command("load_demo", "--count", "1", "--words", "800", "--no-annotate", stdout=out)
    call_command("load_demo", "--count", "1", "--words", "800", "--no-annotate", stdout=out)
    assert Transcript.objects.count() == 1
    t = Transcript.objects.get()
    assert list(t.assignees.all()) == [annotator] and t.utterances.exists()
    assert "already imported" in out.getvalue()


def _manage(*args, database):
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{database}")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, str(repo / "manage.py"), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=repo,
        timeout=120,
        check=False,
    )


def test_dry_run_needs_no_database_on_a_never_migrated_checkout(tmp_path):
    # Before: an OperationalError traceback (the duplicate check read a missing table).
    source = tmp_path / "plain.txt"
    source.write_bytes(SPEECH)
    empty = tmp_path / "never-migrated.sqlite3"
    proc = _manage("import_transcripts", str(source), "--dry-run", "--json", database=empty)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)["files"][0]
    assert result["ok"] and result["utterances"] == 2 and result["duplicate_of"] is None
    assert "Traceback" not in proc.stderr


def test_dry_run_text_output_shows_notices(tmp_path, db):
    source = tmp_path / "note.txt"
    source.write_bytes(b"Just a note without speakers.\n\nAnother paragraph.\n")
    out, code = run(str(source), "--dry-run")
    assert code == 0
    assert "note: No speaker turns" in out


def test_bench_import_times_import_and_bare_extraction_in_one_run():
    out = StringIO()
    call_command("bench_import", "--words", "1500", "--runs", "1", "--json", stdout=out)
    result = json.loads(out.getvalue())
    assert result["pages"] > 5 and result["words"] > 1000
    assert result["bare_pypdfium2_s"] > 0 and result["import_s"] > 0
    assert result["ratio"] == round(result["import_s"] / result["bare_pypdfium2_s"], 2)
