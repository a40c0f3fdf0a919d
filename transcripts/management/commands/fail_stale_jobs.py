"""``manage.py fail_stale_jobs [--minutes N]``: fail jobs whose worker was killed mid-job.

The web views do the same on every poll; run this from cron (or before restarting
workers) where nobody watches the pages. ``--minutes`` is how long a running job may go
without a heartbeat (default 10; every job reports at least per detector or per five
pages).
"""

from datetime import timedelta

from django.core.management.base import BaseCommand

from transcripts.services.jobs import STALE_AFTER, jobs_fail_stale


class Command(BaseCommand):
    help = "Mark running jobs without a heartbeat for --minutes as failed (worker killed)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--minutes", type=float, default=STALE_AFTER.total_seconds() / 60, help="default 10"
        )

    def handle(self, *args, minutes: float, **options):
        failed = jobs_fail_stale(older_than=timedelta(minutes=minutes))
        self.stdout.write(f"{failed} stale job(s) marked failed.")
