"""``manage.py fail_stale_jobs [--minutes N]``: fail jobs whose worker is gone.

The web views do the same on every poll; run this from cron (or before restarting
workers) where nobody watches the pages. A job run by a ``db_worker`` is failed only when
its worker process has not been seen for ``--minutes`` (default: one minute; live workers
beat every 10 s from a thread of their own, whatever the job is doing), stopped, or was
replaced by a restarted process; a job run in its own process (``annotate --sync``) when
it reported no progress for ``--minutes`` (default 10). django-tasks' own rows that dead
workers left ``RUNNING`` are marked ``FAILED`` too (``jobs.task_rows_close``).
"""

from datetime import timedelta

from django.core.management.base import BaseCommand

from transcripts.services.jobs import jobs_fail_stale, task_rows_close


class Command(BaseCommand):
    help = "Mark running jobs whose worker is gone as failed (worker killed or restarted)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--minutes",
            type=float,
            default=None,
            help="how long a worker (or an in-process job) may go unseen; "
            "default 1 for workers, 10 for in-process jobs",
        )

    def handle(self, *args, minutes: float | None, **options):
        older_than = timedelta(minutes=minutes) if minutes is not None else None
        failed = jobs_fail_stale(older_than=older_than)
        closed = task_rows_close(older_than=older_than)
        self.stdout.write(
            f"{failed} stale job(s) marked failed; {closed} task row(s) of dead workers closed."
        )
