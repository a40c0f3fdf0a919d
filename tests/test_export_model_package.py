"""An exported domain model goes through ``spacy package`` and loads, installed, by its
package name, as a researcher would ship it.

``spacy package --build none`` writes the package's source folder only: its
``setup.py`` copies ``meta.json`` into the package when it is built, so the folder is
not importable as it is. ``--build sdist``/``wheel`` need the ``build`` package, which is
no dependency; pip builds and installs the folder with the setuptools spaCy already
requires (``--no-build-isolation --no-index``: no network), into a folder of its own.
Neither ``spacy package`` nor the fresh interpreter that loads the result imports the
project's code: only the installed project's entry points (``pyproject.toml``) tell spaCy
what the ``anonreview_biluo`` factory and its input layer are, so without them
``spacy package`` fails with a ``RegistryError`` and so does the load."""

import json
import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.slow

TEXT = "THE WITNESS: My name is Daniel Young and I was born on May 3, 1971."


def _run(args, cwd):
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


@pytest.mark.django_db
def test_spacy_package_of_an_exported_model_installs_and_loads_by_name_with_our_labels(tmp_path):
    exported = tmp_path / "domain"
    call_command("export_model", "--out", str(exported), stdout=StringIO())
    packages = tmp_path / "packages"
    packages.mkdir()

    _run(
        [
            sys.executable, "-m", "spacy", "package", str(exported), str(packages),
            "--name", "anonreview_domain", "--version", "0.0.1", "--build", "none",
        ],
        cwd=tmp_path,
    )  # fmt: skip

    source = packages / "en_anonreview_domain-0.0.1"
    meta = json.loads((source / "meta.json").read_text())
    # spaCy found the factory's module through the entry points: the package requires us
    assert any(r.split(">")[0].split("=")[0] == "anonreview" for r in meta["requirements"])
    site = tmp_path / "site"
    _run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
            "--no-build-isolation", "--no-index", "--target", str(site), str(source),
        ],
        cwd=tmp_path,
    )  # fmt: skip
    script = (
        "import json, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "import en_anonreview_domain\n"
        "nlp = en_anonreview_domain.load()\n"
        "doc = nlp(sys.argv[2])\n"
        "print(json.dumps([[e.text, e.label_] for e in doc.ents]))\n"
    )
    done = _run([sys.executable, "-c", script, str(site), TEXT], cwd=tmp_path)

    ents = [tuple(e) for e in json.loads(done.stdout.strip().splitlines()[-1])]
    assert ("Daniel Young", "PERSON") in ents
    assert ("May 3, 1971", "DATE") in ents
