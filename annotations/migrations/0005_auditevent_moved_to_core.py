"""AuditEvent now belongs to the ``core`` app (state only; the table stays)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("annotations", "0004_allowlist_hearing_terms"),
        ("core", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AuditEvent")],
            database_operations=[],
        ),
    ]
