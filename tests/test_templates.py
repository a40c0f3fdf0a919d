"""Templates as Django reads them: a ``{# #}`` comment ends on its own line (Django prints
a comment that spans lines as text: the leak list at Submit showed its own comment)."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def test_every_one_line_comment_ends_on_its_line():
    broken = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            rest = line
            while "{#" in rest:
                rest = rest[rest.index("{#") + 2 :]
                if "#}" not in rest:
                    broken.append(f"{path.relative_to(TEMPLATES)}:{number}")
                    break
                rest = rest[rest.index("#}") + 2 :]
    assert broken == []
