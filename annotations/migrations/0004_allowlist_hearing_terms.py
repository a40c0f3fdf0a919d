"""More parole-hearing terms that are never personal data: the Board on its own, the
transcriber's notes, video platforms, common programmes and review names."""

from django.db import migrations

TERMS = [
    ("Board", "the board (of Parole Hearings)"),
    ("Board Hearing", "procedure"),
    ("Full Board", "the board sitting en banc"),
    ("En Banc", "procedure"),
    ("Inaudible", "transcriber's note"),
    ("Indiscernible", "transcriber's note"),
    ("Unintelligible", "transcriber's note"),
    ("Crosstalk", "transcriber's note"),
    ("Phonetic", "transcriber's note"),
    ("Microsoft Teams", "video platform"),
    ("Zoom", "video platform"),
    ("WebEx", "video platform"),
    ("Alternatives to Violence", "programme"),
    ("Alternatives to Violence Project", "programme"),
    ("AVP", "programme"),
    ("Olson Review", "file review (In re Olson)"),
    ("Correctional Staff", "role"),
    ("Correctional Officer", "role"),
    ("California Code of Regulations", "law"),
    ("Code of Regulations", "law"),
]


def seed(apps, schema_editor):
    AllowListTerm = apps.get_model("annotations", "AllowListTerm")
    for term, note in TERMS:
        AllowListTerm.objects.get_or_create(term=term, defaults={"note": note})


def unseed(apps, schema_editor):
    AllowListTerm = apps.get_model("annotations", "AllowListTerm")
    AllowListTerm.objects.filter(term__in=[t for t, _ in TERMS], created_by__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("annotations", "0003_allowlist_seed")]

    operations = [migrations.RunPython(seed, unseed)]
