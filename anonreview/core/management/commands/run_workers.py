"""``manage.py run_workers [--workers N] [--interval S]``: keep N ``db_worker`` processes
running, restarting any that dies.

``make run`` starts its workers with this: a worker killed (``kill -9``, out of memory)
or stopped on an error is started again under the same worker id after a short pause
(longer when it keeps dying at once, so that a broken configuration does not spin).
SIGINT/SIGTERM stop the workers (each finishes its current task, as ``db_worker`` does)
and then the supervisor. A deployment uses its process manager instead (a systemd unit
per worker with ``Restart=always``; see docs/workers.md).
"""

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from anonreview.core import workers

logger = logging.getLogger("anonreview.worker")

QUICK_DEATH_S = 10.0  # a worker that dies sooner than this after its start backs off
MAX_BACKOFF_S = 60.0


class Supervisor:
    def __init__(
        self,
        *,
        count: int,
        prefix: str,
        worker_args: list[str],
        pause: float,
        env: dict | None = None,
    ):
        self.count = count
        self.prefix = prefix
        self.worker_args = worker_args
        self.pause = pause
        self.env = env
        self.children: dict[str, subprocess.Popen] = {}
        self.started_at: dict[str, float] = {}
        self.backoff: dict[str, float] = {}
        self.restarts = 0
        self.stopping = False

    def command(self, worker_id: str) -> list[str]:
        manage = Path(settings.BASE_DIR) / "manage.py"
        return [
            sys.executable,
            str(manage),
            "db_worker",
            "--no-reload",
            "--worker-id",
            worker_id,
            *self.worker_args,
        ]

    def start(self, worker_id: str) -> None:
        # In a session of its own: a Ctrl-C in the terminal reaches the supervisor only,
        # which passes one SIGTERM on (a second signal would cut the task short), and the
        # worker can lower its session's scheduling group (``session_group_lower_to``).
        self.children[worker_id] = subprocess.Popen(
            self.command(worker_id),
            start_new_session=True,
            env=self.env,
            preexec_fn=workers.die_with_parent,
        )
        self.started_at[worker_id] = time.monotonic()

    def stop(self, signum=None, frame=None) -> None:
        self.stopping = True

    def run(self) -> int:
        for n in range(1, self.count + 1):
            self.start(f"{self.prefix}-{n}")
        due: dict[str, float] = {}
        while not self.stopping:
            now = time.monotonic()
            for worker_id, child in list(self.children.items()):
                code = child.poll()
                if code is None or worker_id in due:
                    continue
                lived = now - self.started_at[worker_id]
                wait = self.pause
                if lived < QUICK_DEATH_S:
                    wait = min(MAX_BACKOFF_S, max(self.pause, self.backoff.get(worker_id, 0) * 2))
                self.backoff[worker_id] = wait if lived < QUICK_DEATH_S else 0
                logger.warning(
                    "worker %s exited (status %s) after %.0f s; restarting in %.0f s",
                    worker_id,
                    code,
                    lived,
                    wait,
                )
                due[worker_id] = now + wait
            for worker_id, when in list(due.items()):
                if now >= when and not self.stopping:
                    del due[worker_id]
                    self.restarts += 1
                    self.start(worker_id)
            time.sleep(0.2)
        for child in self.children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in self.children.values():
            try:
                child.wait(timeout=120)
            except subprocess.TimeoutExpired:
                child.kill()
        return 0


class Command(BaseCommand):
    help = "Run N db_worker processes and restart any that dies (make run uses it)."

    def add_arguments(self, parser):
        parser.add_argument("--workers", type=int, default=1)
        parser.add_argument("--prefix", default="local", help="worker ids: PREFIX-1 … PREFIX-N")
        parser.add_argument("--interval", default="0.2", help="db_worker's --interval")
        parser.add_argument(
            "--restart-pause", type=float, default=2.0, help="seconds before a restart"
        )
        parser.add_argument(
            "--preload-detectors",
            action="store_true",
            help="workers load their models at start (ANONREVIEW_PRELOAD_DETECTORS=1 for "
            "them only: the supervisor itself loads no model)",
        )

    def handle(
        self,
        *args,
        workers: int,
        prefix: str,
        interval: str,
        restart_pause: float,
        preload_detectors: bool,
        **kw,
    ):
        env = dict(os.environ)
        env.setdefault("ANONREVIEW_WORKERS", str(max(1, workers)))
        if preload_detectors:
            env["ANONREVIEW_PRELOAD_DETECTORS"] = "1"
        supervisor = Supervisor(
            count=max(1, workers),
            prefix=prefix,
            worker_args=["--interval", interval],
            pause=restart_pause,
            env=env,
        )
        signal.signal(signal.SIGINT, supervisor.stop)
        signal.signal(signal.SIGTERM, supervisor.stop)
        logger.info("supervising %d worker(s)", supervisor.count)
        supervisor.run()
