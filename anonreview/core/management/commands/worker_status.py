"""``manage.py worker_status [--json]``: which ``db_worker`` processes are alive.

One line per worker process not known to have stopped: its id, host, pid, when it
started and how long ago its heartbeat thread last wrote (every ``WORKER_HEARTBEAT_SECONDS``). A worker unseen for longer than
``WORKER_GONE_AFTER_SECONDS`` is listed as gone: its running jobs are failed by the next
sweep (the job pages, ``fail_stale_jobs``). Exit status 1 when no worker is alive, for
monitoring (docs/workers.md).
"""

import json as jsonlib

from django.core.management.base import BaseCommand
from django.utils import timezone

from anonreview.core.models import WorkerProcess
from anonreview.core.workers import gone_after


class Command(BaseCommand):
    help = "List the db_worker processes and whether they are alive (exit 1 when none is)."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, json: bool = False, **options):
        now = timezone.now()
        rows = []
        for w in WorkerProcess.objects.filter(stopped_at=None).order_by("worker_id", "started_at"):
            ago = (now - w.seen_at).total_seconds()
            rows.append(
                {
                    "worker_id": w.worker_id,
                    "host": w.hostname,
                    "pid": w.pid,
                    "started_at": w.started_at.isoformat(),
                    "seen_s_ago": round(ago, 1),
                    "alive": ago <= gone_after().total_seconds(),
                }
            )
        alive = sum(r["alive"] for r in rows)
        if json:
            self.stdout.write(_dumps({"alive": alive, "workers": rows}))
        else:
            for r in rows:
                state = "alive" if r["alive"] else "GONE"
                self.stdout.write(
                    f"{r['worker_id']:<16} {r['host']}:{r['pid']:<8} {state:<6} "
                    f"seen {r['seen_s_ago']:.0f} s ago, started {r['started_at'][:19]}"
                )
            self.stdout.write(f"{alive} worker(s) alive.")
        if not alive:
            raise SystemExit(1)


def _dumps(data) -> str:
    return jsonlib.dumps(data)
