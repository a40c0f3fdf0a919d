"""The README's deployment section serves with ``make run``'s access-log format:
gunicorn's default writes query strings, and two pages carry names in theirs
(the review page's ``?q=``, a surface form's ``?label=PERSON&form=…``)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _access_log_format() -> str:
    makefile = (ROOT / "Makefile").read_text()
    return re.search(r"^ACCESS_LOG := '(.*)'$", makefile, re.MULTILINE).group(1)


def test_the_makefiles_access_log_format_has_no_query_string():
    fmt = _access_log_format()
    assert "%(U)s" in fmt  # the path only
    assert not {"%(r)s", "%(q)s"} & set(re.findall(r"%\(\w+\)s", fmt))


def test_the_readmes_gunicorn_command_uses_the_same_access_log_format():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("### Serving behind HTTPS") :]
    section = section[: section.index("\n### ", 5)]
    commands = [line for line in section.splitlines() if "--access-logformat" in line]
    assert commands, "the deployment section starts gunicorn without make run's log format"
    assert all(f"--access-logformat '{_access_log_format()}'" in c for c in commands)
    assert "--access-logfile" in section and "query string" in section
