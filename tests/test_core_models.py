"""The audit log moved from ``annotations`` to the ``core`` app in Django's state only:
rows written before the move are read (and new ones written) through ``core``."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from anonreview.core.audit import audit_record
from anonreview.core.models import AuditEvent

BEFORE = [("annotations", "0004_allowlist_hearing_terms"), ("transcripts", "0005_stored_files")]


@pytest.mark.django_db(transaction=True)
def test_audit_rows_written_before_the_move_are_kept_and_read_through_core():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    transcript = old.get_model("transcripts", "Transcript").objects.create(
        title="t", text="abc", sha256="a" * 64
    )
    old.get_model("annotations", "AuditEvent").objects.create(
        event_type="before.move", transcript_id=transcript.pk, after={"n": 1}
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    event = AuditEvent.objects.get(event_type="before.move")
    assert event.after == {"n": 1} and event.transcript_id == transcript.pk
    audit_record(actor=None, event_type="after.move", transcript=event.transcript)
    assert set(event.transcript.audit_events.values_list("event_type", flat=True)) == {
        "before.move",
        "after.move",
    }
    assert AuditEvent._meta.db_table == "annotations_auditevent"
