"""`manage.py generate_synthetic` writes text, PDFs and gold JSONL."""

import json

import pdfplumber
import pytest
from django.core.management import CommandError, call_command

from engine.gold import read_jsonl
from engine.synthetic import generate_hearing


def test_command_writes_text_pdf_and_gold(tmp_path, capsys):
    call_command(
        "generate_synthetic",
        "--n",
        "2",
        "--out",
        str(tmp_path),
        "--words",
        "1500",
        "--seed",
        "40",
        "--pdf",
        "--json",
    )
    summary = json.loads(capsys.readouterr().out)
    assert [f["id"] for f in summary["files"]] == ["synthetic-00040", "synthetic-00041"]
    docs = read_jsonl(tmp_path / "gold.jsonl")
    assert [d.id for d in docs] == ["synthetic-00040", "synthetic-00041"]
    for doc in docs:
        assert (tmp_path / f"{doc.id}.txt").read_text(encoding="utf-8") == doc.text
        assert doc.spans and doc.meta["source"] == "synthetic"
        with pdfplumber.open(tmp_path / f"{doc.id}.pdf") as pdf:
            assert len(pdf.pages) >= 5
    assert docs[0].text == generate_hearing(40, words=1500).text


def test_command_without_pdf_writes_only_text_and_gold(tmp_path):
    call_command("generate_synthetic", "--out", str(tmp_path), "--words", "1000")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gold.jsonl", "synthetic-00000.txt"]


def test_command_rejects_a_bad_count(tmp_path):
    with pytest.raises(CommandError):
        call_command("generate_synthetic", "--n", "0", "--out", str(tmp_path))


@pytest.mark.parametrize("fmt", ["vtt", "srt", "stt", "rst", "md", "ecf"])
def test_command_writes_each_format_with_gold_into_the_imported_text(tmp_path, capsys, fmt):
    from engine.importing import parse_file

    layout = "federal" if fmt == "ecf" else "grand_jury"
    call_command(
        "generate_synthetic",
        *("--out", str(tmp_path), "--words", "600", "--seed", "3"),
        *("--layout", layout, "--format", fmt, "--json"),
    )
    entry = json.loads(capsys.readouterr().out)["files"][0]
    (doc,) = read_jsonl(tmp_path / "gold.jsonl")
    assert doc.id == entry["id"] and doc.spans
    path = tmp_path / entry["path"].rsplit("/", 1)[-1]
    parsed = parse_file(path.name, path.read_bytes())
    assert parsed.text == doc.text
