"""AuditEvent moves from ``annotations`` to ``core`` in Django's state only: the table
``annotations_auditevent`` and its rows stay where they are (nothing is copied)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("transcripts", "0005_stored_files"),
        ("annotations", "0004_allowlist_hearing_terms"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuditEvent",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("actor_username", models.CharField(blank=True, max_length=150)),
                        ("event_type", models.CharField(max_length=64)),
                        ("before", models.JSONField(blank=True, default=dict)),
                        ("after", models.JSONField(blank=True, default=dict)),
                        ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "transcript",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="audit_events",
                                to="transcripts.transcript",
                            ),
                        ),
                        (
                            "span",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="annotations.span",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "annotations_auditevent",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(
                                fields=["transcript", "created_at"],
                                name="annotations_transcr_2f32bb_idx",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
