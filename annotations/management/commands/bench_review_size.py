"""The review at size (annotations/benchmarks/review_size.py).

    python manage.py bench_review_size [--undo] [--pages] [--sizes 1000,3000,6000]
        [--long-lines 200000] [--json]

``--undo``: a whole-form reject and accept of N mentions against their undo (seconds,
queries, ratio undo / action; the undo should stay within 3x at any size).
``--pages``: reading mode and the review page of a transcript of N accepted mentions and
of a ``--long-lines``-line text import (14 MB at 200,000 lines; 0 leaves it out).
Neither flag: both. Against the configured database (``DATABASE_URL`` for PostgreSQL);
everything it creates is deleted at the end.
"""

import json
import os
import uuid

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import override_settings

from anonreview import roles


class Command(BaseCommand):
    help = "Time undo against the action it undoes, reading mode and the review page at size."

    def add_arguments(self, parser):
        parser.add_argument("--undo", action="store_true")
        parser.add_argument("--pages", action="store_true")
        parser.add_argument("--sizes", default="1000,3000,6000")
        parser.add_argument("--long-lines", type=int, default=200000)
        parser.add_argument("--repeat", type=int, default=2)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        from annotations.benchmarks.review_size import measure_pages, measure_undo

        sizes = [int(s) for s in options["sizes"].split(",") if s.strip()]
        both = not options["undo"] and not options["pages"]
        user = get_user_model().objects.create_user(f"bench-size-{uuid.uuid4().hex[:8]}")
        user.groups.add(Group.objects.get_or_create(name=roles.LEAD)[0])
        report = {"database": connection.vendor, "load_average": os.getloadavg()}
        try:
            # In-process requests: the deployment's host and HTTPS settings do not apply.
            with override_settings(
                ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False, DEBUG=False
            ):
                if options["undo"] or both:
                    report["undo"] = measure_undo(sizes=sizes, user=user)
                if options["pages"] or both:
                    report["pages"] = measure_pages(
                        sizes=sizes,
                        long_lines=options["long_lines"],
                        user=user,
                        repeat=options["repeat"],
                    )
        finally:
            user.delete()
        report["load_average_after"] = os.getloadavg()
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self.stdout.write(
            f"database {report['database']}, load average "
            f"{report['load_average'][0]:.1f} -> {report['load_average_after'][0]:.1f}"
        )
        for row in report.get("undo", []):
            self.stdout.write(
                f"{row['action']:<12} {row['spans']:>6} spans: action {row['forward_s']:.3f} s "
                f"({row['forward_queries']} queries), undo {row['undo_s']:.3f} s "
                f"({row['undo_queries']} queries), undo/action {row['ratio']:.2f}"
            )
        for row in report.get("pages", []):
            parts = f", {row['parts']} part(s)" if row["parts"] else ""
            self.stdout.write(
                f"{row['page']:<8} {row['transcript']:<14} ({row['chars']:,} chars{parts}): "
                f"{row['seconds']:.3f} s, {row['bytes']:,} bytes"
            )
