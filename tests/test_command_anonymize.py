import json
import re
import zipfile
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

SYNTHETIC = (
    "PRESIDING COMMISSIONER ALDEN: Good morning. Please state your name and spell it.\n"
    "INCARCERATED PERSON QUILL: Jonah Quill, Q-U-I-L-L. My number is V12345.\n"
    "PRESIDING COMMISSIONER ALDEN: Thank you, Mr. Quill. You were arrested on May 13, 2012 "
    "in Fresno, California.\n"
)


def row_counts():
    return {m._meta.label: m.objects.count() for m in apps.get_models()}


def test_anonymize_text_file_writes_outputs_and_leaves_no_rows(tmp_path, capsys):
    source = tmp_path / "hearing-one.txt"
    source.write_text(SYNTHETIC)
    archive = tmp_path / "batch.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a/hearing-two.txt", SYNTHETIC.replace("Quill", "Reyes"))
    before = row_counts()
    call_command(
        "anonymize",
        str(source),
        str(archive),
        str(tmp_path / "missing.pdf"),
        "--out",
        str(tmp_path / "out"),
        "--json",
    )
    assert row_counts() == before
    files = json.loads(capsys.readouterr().out)["files"]
    assert [f["ok"] for f in files] == [True, True, False]
    summary = files[0]
    # The leak check also looks at speaker tags; the speaker-tag recognizer
    # marks "ALDEN" in "PRESIDING COMMISSIONER ALDEN:", so nothing leaks.
    assert summary["ok"]
    assert summary["leaks_by_label"] == {}, summary["leaks_by_label"]
    assert "Reyes" not in (tmp_path / "out" / "hearing-two.txt").read_text()
    out = (tmp_path / "out" / "hearing-one.txt").read_text()
    for secret in ("Quill", "QUILL", "Q-U-I-L-L", "V12345", "2012", "Jonah"):
        assert secret not in out
    assert "[SPELLED_NAME_PERSON_" in out and "[MONTH] [DAY], [YEAR]" in out
    rows = [json.loads(line) for line in (tmp_path / "out" / "hearing-one.spans.jsonl").open()]
    assert all({"start", "end", "label", "ref", "detectors"} <= set(r) for r in rows)
    assert "text" not in rows[0]
    key = json.loads((tmp_path / "out" / "hearing-one.key.json").read_text())
    assert any("V12345" in entry["originals"] for entry in key.values())


@pytest.mark.realdata
def test_anonymize_real_transcript_leaves_no_cover_identifier(realdata_pdf, tmp_path, capsys):
    """The leak check inside the command covers the cover page (names, CDCR number,
    institution, hearing date) and every detected span; nothing blocking may remain."""
    call_command("anonymize", str(realdata_pdf), "--out", str(tmp_path), "--json")
    summary = json.loads(capsys.readouterr().out)["files"][0]
    assert summary["ok"]
    assert summary["leaks"] == 0, summary["leaks_by_label"]  # labels and kinds only, no text
    out = (tmp_path / f"{realdata_pdf.stem}.txt").read_text()
    assert re.search(r"\b(?:19|20)\d\d\b", out) is None  # no year left
    assert "[SPELLED_NAME_PERSON_" in out and "[ID_" in out


def test_anonymize_rename_gives_outputs_pseudonymous_names(tmp_path, capsys):
    source = tmp_path / "Quill, V12345, 2012-05-13.txt"
    source.write_text(SYNTHETIC)
    out_dir = tmp_path / "out"
    call_command("anonymize", str(source), "--out", str(out_dir), "--rename", "--json")
    files = json.loads(capsys.readouterr().out)["files"]
    assert files[0]["ok"] and "Quill" not in files[0]["output"]
    names = sorted(p.name for p in out_dir.iterdir())
    assert not any("Quill" in n or "V12345" in n for n in names)
    assert re.fullmatch(r"transcript-[0-9a-f]{12}\.txt", Path(files[0]["output"]).name)
    mapping = json.loads((out_dir / "names.key.json").read_text())
    assert list(mapping.values()) == [str(source)]


def test_anonymize_runs_on_a_never_migrated_database_with_the_default_allow_list(tmp_path):
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parent.parent
    source = tmp_path / "hearing.txt"
    source.write_text(SYNTHETIC)
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path / 'never-migrated.sqlite3'}")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    proc = subprocess.run(
        [
            sys.executable,
            str(repo / "manage.py"),
            "anonymize",
            str(source),
            "--out",
            str(tmp_path / "out"),
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=repo,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "default allow-list" in proc.stderr
    (summary,) = json.loads(proc.stdout)["files"]
    assert summary["ok"] and summary["leaks"] == 0
    assert "Quill" not in (tmp_path / "out" / "hearing.txt").read_text()


def test_anonymize_a_deposition_with_role_word_surnames(tmp_path, capsys, settings):
    """Detection proposes the role-word surnames (MR. JUDGE, GEORGE FOREMAN, Ms. Justice,
    BY MS. SPEAKER:): no name leaves; with the cover page alone proposing, the leak check
    reports each place they are left in clear and nothing else."""
    from tests.role_deposition import DEPOSITION, role_surname_places

    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"
    source = tmp_path / "deposition.txt"
    source.write_bytes(DEPOSITION)
    light = [{"NAME": f"engine.detectors.{path}", "OPTIONS": {}}
             for path in ("cover.CoverPageDetector", "patterns.PatternDetector",
                          "propagation.PropagationDetector")]  # fmt: skip
    settings.DETECTORS = light
    call_command("anonymize", str(source), "--out", str(tmp_path / "a"), "--json")
    summary = json.loads(capsys.readouterr().out)["files"][0]
    out = (tmp_path / "a" / "deposition.txt").read_text()
    assert not re.search(r"JUDGE|Justice|FOREMAN|Foreman|SPEAKER", out), out
    assert summary["leaks"] == 0, summary
    assert "a fair trial" in out and "The Judge who" in out
    settings.DETECTORS = light[:1]
    call_command("anonymize", str(source), "--out", str(tmp_path / "b"), "--json")
    summary = json.loads(capsys.readouterr().out)["files"][0]
    out = (tmp_path / "b" / "deposition.txt").read_text()
    found = {(s, e) for s, e, _label in summary["leak_positions"]}
    assert set(role_surname_places(out)) <= found
    assert {out[s:e] for s, e in found} <= {
        "JUDGE", "Justice", "FOREMAN", "Foreman", "SPEAKER", "GEORGE", "George", "CARLA",
        "Carla", "NORA", "Owen", "OWEN", "Paul", "Ellen", "Kristen", "Turner",
    }  # fmt: skip
