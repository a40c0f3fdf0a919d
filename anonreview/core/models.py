"""Models both apps share. ``AuditEvent`` moved here from ``annotations`` (its table,
``annotations_auditevent``, stayed: the move changed Django's state, not the database)."""

from django.conf import settings
from django.db import models


class AuditEvent(models.Model):
    """Append-only record of every state change; written only by services."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_username = models.CharField(max_length=150, blank=True)
    event_type = models.CharField(max_length=64)
    transcript = models.ForeignKey(
        "transcripts.Transcript",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="audit_events",
    )
    # A lazy reference (no import): the core stays below both apps.
    span = models.ForeignKey(
        "annotations.Span", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "annotations_auditevent"
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["transcript", "created_at"], name="annotations_transcr_2f32bb_idx")
        ]

    def __str__(self) -> str:
        return f"{self.event_type} by {self.actor_username or 'system'}"


class WorkerProcess(models.Model):
    """One running ``db_worker`` process: its liveness row.

    The worker's heartbeat thread bumps ``seen_at`` every few seconds, whatever its job
    is doing (a long detector stage reports no progress for minutes). A job belongs to
    the ``key`` of the process that started it; the stale sweep fails a running job
    only when that process is gone: not seen for a while, stopped, or replaced by a new
    process under the same worker id on the same host (a restart after a crash).
    """

    key = models.CharField(max_length=200, unique=True)
    worker_id = models.CharField(max_length=64)
    hostname = models.CharField(max_length=120)
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField(db_index=True)
    stopped_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["worker_id", "-started_at"]

    def __str__(self) -> str:
        return self.key
