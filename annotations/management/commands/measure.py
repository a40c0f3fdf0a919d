"""Compute the measurement dashboard from the command line.

    python manage.py measure [--no-ablation] [--json] [--save]

Prints Table 3 (automatic annotation vs reviewed gold over approved transcripts), Table 5
(each detector alone), Table 8 (ablation without the cover-page detector, unless
``--no-ablation``), corpus statistics, agreement and reviewer effort. ``--save`` stores the
result as a finished dashboard job, so the dashboard page shows it.
"""

import json

from django.core.management.base import BaseCommand

from annotations.services import measurements
from engine.measurements import tables
from transcripts.models import Job
from transcripts.services import jobs


def _f(value) -> str:
    return "—" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


class Command(BaseCommand):
    help = "Compute the dashboard's figures (Tables 3, 5, 8, corpus, agreement, effort)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--no-ablation", action="store_true", help="skip re-running detection (Table 8)"
        )
        parser.add_argument("--json", action="store_true", help="print the whole snapshot as JSON")
        parser.add_argument("--save", action="store_true", help="store it for the dashboard page")

    def handle(self, *args, **options):
        progress = (
            None
            if options["json"]
            else (lambda p: self.stderr.write(f"[{p.percent:3d}%] {p.message}"))
        )
        snapshot = measurements.dashboard_compute(
            rerun=not options["no_ablation"], progress=progress
        )
        if options["save"]:
            job = jobs.job_create(kind=Job.Kind.EVALUATE, message="dashboard (command)")
            jobs.job_finish(job_id=job.pk, message="Dashboard computed", result=snapshot)
        if options["json"]:
            self.stdout.write(json.dumps(snapshot, indent=2))
            return
        self.stdout.write(f"{len(snapshot['transcripts'])} approved transcript(s)")
        for table, title in (
            ("table3", "Table 3: automatic annotation vs reviewed gold"),
            ("table5", "Table 5: each detector alone"),
            ("table8", "Table 8: ablation without the cover-page detector"),
            ("corpus", "Corpus statistics"),
            ("agreement", "Agreement between annotators"),
            ("effort", "Reviewer effort"),
        ):
            header, rows = tables.rows(snapshot, table)
            self.stdout.write(f"\n{title}")
            if table == "table8" and not snapshot["table8"].get("available"):
                self.stdout.write(f"  not available: {snapshot['table8'].get('reason')}")
                continue
            self.stdout.write("  " + "\t".join(header))
            for row in rows:
                self.stdout.write("  " + "\t".join(_f(v) for v in row))
        if "table3" in snapshot:
            self.stdout.write(f"\nLeaked gold tokens: {snapshot['table3'].get('leaked_tokens')}")
        parts = snapshot.get("table3_name_parts")
        if parts:
            exact = parts["overall"]["exact"]
            corpus_parts = snapshot.get("corpus_name_parts") or {}
            self.stdout.write(
                "Tables 3 and 6 count whole mentions (as evaluate, the datasheet and agreement"
                " do). Counted as name parts (the paper's tags): exact F1 "
                f"{_f(exact['f1'])} over {exact['tp'] + exact['fn']} gold spans; "
                f"{corpus_parts.get('entities')} entities, "
                f"{(corpus_parts.get('labels') or {}).get('PERSON', 0)} PERSON."
            )
