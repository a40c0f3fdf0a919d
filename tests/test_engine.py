"""The engine is plain Python: every module imports without Django (import-linter checks
the imports statically; this checks that nothing pulls Django in at run time)."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

SCRIPT = """
import importlib, pkgutil, sys
import engine
names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
for name in names:
    importlib.import_module(name)
print(len(names), "django" in sys.modules)
"""


def test_every_engine_module_imports_without_django():
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-2000:]
    count, django_loaded = out.stdout.split()
    assert int(count) > 40 and django_loaded == "False"
