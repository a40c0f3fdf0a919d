"""DETECTOR_THREADS: the cores this process may use divided by the workers sharing them."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO

PROBE = (
    "import json, os, django; django.setup(); from django.conf import settings; "
    "print(json.dumps([settings.DETECTOR_THREADS, settings.DETECTOR_WORKERS, "
    "os.environ['OMP_NUM_THREADS'], os.environ['OPENBLAS_NUM_THREADS'], "
    "len(os.sched_getaffinity(0))]))"
)


def settings_with(**env):
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {"ANONREVIEW_WORKERS", "ANONREVIEW_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"}
        and k != "OPENBLAS_NUM_THREADS"
    }
    clean.update(DJANGO_SETTINGS_MODULE="anonreview.settings", **env)
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, env=clean, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-1500:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="Linux only")
def test_threads_are_the_cores_divided_by_the_workers_and_reach_the_native_libraries():
    threads, workers, omp, blas, cores = settings_with(ANONREVIEW_WORKERS="2")
    assert workers == 2
    assert threads == max(1, cores // 2)
    assert omp == blas == str(threads)


def test_threads_can_be_set_and_never_drop_below_one():
    assert settings_with(ANONREVIEW_THREADS="3")[0] == 3
    assert settings_with(ANONREVIEW_WORKERS="64")[0] == 1
