"""A carried rejection is a proposal: rows that an earlier version of the annotation
rejected by itself (a carried decision, no reviewer) in a transcript not yet approved
become undecided again, so that a person on the transcript decides them. Approved and
released transcripts keep their history."""

from django.db import migrations

CHUNK = 500


def forwards(apps, schema_editor):
    Span = apps.get_model("annotations", "Span")
    rows = (
        Span.objects.filter(status="rejected", reviewer__isnull=True)
        .exclude(transcript__state__in=["approved", "released"])
        .values_list("pk", "provenance")
    )
    ids = [
        pk
        for pk, provenance in rows.iterator(chunk_size=2000)
        if any(isinstance(p, dict) and p.get("detector") == "carried" for p in provenance or [])
    ]
    for i in range(0, len(ids), CHUNK):
        Span.objects.filter(pk__in=ids[i : i + CHUNK]).update(status="suggested")


class Migration(migrations.Migration):
    dependencies = [("annotations", "0011_trained_model_learning_loop")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
