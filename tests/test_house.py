"""The house rules a newcomer relies on: rooms of a readable size, code that says what is.

Circles between modules are held by lint-imports (pyproject.toml), run by ``make test``."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 600  # lines: a file longer than this is split by what its parts do
# history lives in git and CHANGELOG.md, not in comments and docs
HISTORY = re.compile(r"\b(?:issue|stop|round) #?\d+\b", re.IGNORECASE)


SKIP_DIRS = {".git", ".venv", "var", "staticfiles", "node_modules", ".pytest_cache"}


def _tracked(*patterns: str) -> list[Path]:
    """The project's files matching ``patterns`` (git's list, or the tree's outside a
    checkout), migrations and test data left out."""
    try:
        out = subprocess.run(
            ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
        paths = [ROOT / p for p in out]
    except (OSError, subprocess.CalledProcessError):
        paths = [
            p
            for pattern in patterns
            for p in ROOT.rglob(pattern)
            if not SKIP_DIRS & set(p.relative_to(ROOT).parts)
        ]
    return [
        p
        for p in paths
        if "migrations" not in p.relative_to(ROOT).parts
        and p.relative_to(ROOT).parts[:2] != ("tests", "data")
    ]


def test_no_source_file_is_longer_than_600_lines():
    files = _tracked("*.py", "*.js")
    assert len(files) > 100  # the listing works (a git checkout)
    long = {
        str(p.relative_to(ROOT)): n for p in files if (n := len(p.read_text().splitlines())) > LIMIT
    }
    assert long == {}


def test_code_and_docs_name_no_issue_stop_or_round():
    files = [
        p
        for p in _tracked("*.py", "*.js", "*.html", "*.md", "*.css")
        if p.name != "CHANGELOG.md" and p != Path(__file__)
    ]
    found = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in files
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if HISTORY.search(line)
    ]
    assert found == []
