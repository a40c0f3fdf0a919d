"""Seed the allow-list with parole-hearing domain terms that are never personal data."""

from django.db import migrations

TERMS = [
    ("Board of Parole Hearings", "the board"),
    ("BPH", "the board"),
    ("CDCR", "the department"),
    ("California Department of Corrections and Rehabilitation", "the department"),
    ("Department of Corrections and Rehabilitation", "the department"),
    ("Department of Corrections", "the department"),
    ("Commissioner", "title"),
    ("Presiding Commissioner", "title"),
    ("Deputy Commissioner", "title"),
    ("Commissioners", "title"),
    ("Panel", "role"),
    ("Deputy District Attorney", "title"),
    ("District Attorney", "role"),
    ("Inmate", "role"),
    ("Incarcerated Person", "role"),
    ("Comprehensive Risk Assessment", "document"),
    ("CRA", "document"),
    ("Risk Assessment", "document"),
    ("Alcoholics Anonymous", "program"),
    ("Narcotics Anonymous", "program"),
    ("AA", "program"),
    ("NA", "program"),
    ("Criminal Gangs Anonymous", "program"),
    ("Celebrate Recovery", "program"),
    ("Anger Management", "program"),
    ("Cognitive Behavioral Therapy", "program"),
    ("Twelve Steps", "program"),
    ("12 Steps", "program"),
    ("Marsy's Law", "law"),
    ("Petition to Advance", "procedure"),
    ("Parole Suitability Hearing", "procedure"),
    ("Subsequent Parole Consideration Hearing", "procedure"),
    ("Youth Offender Parole", "procedure"),
    ("Elderly Parole", "procedure"),
    ("Penal Code", "law"),
    ("Title 15", "law"),
    ("Static-99", "instrument"),
    ("HCR-20", "instrument"),
    ("PCL-R", "instrument"),
    ("GED", "education"),
    ("Rules Violation Report", "document"),
    ("Chrono", "document"),
    ("Central File", "document"),
    ("Denial Management", "programme"),
    ("Thinking for a Change", "programme"),
    ("Getting Out by Going In", "programme"),
    ("GOGI", "programme"),
    ("Victim Impact", "programme"),
    ("Victim Awareness", "programme"),
    ("Victim Offender Education Group", "programme"),
    ("VOEG", "programme"),
    ("Houses of Healing", "programme"),
    ("Restorative Justice", "programme"),
    ("Emotional Intelligence", "programme"),
    ("Cognitive Behavioral Intervention", "programme"),
    ("Criminal Thinking", "programme"),
    ("Building Maintenance", "vocation"),
    ("HVAC", "vocation"),
    ("TABE", "education test"),
    ("DECS", "database"),
    ("SOMS", "database"),
    ("Social Security", "agency term"),
    ("Americans with Disabilities Act", "law"),
    ("ADA", "law"),
    ("Long-Term Offender Program", "programme"),
    ("LTOP", "programme"),
    ("Offender Mentor Certification Program", "programme"),
    ("Next of Kin", "role"),
    ("Victim's Next of Kin", "role"),
    ("PCP", "substance"),
    ("Bible", "religious text"),
    ("Lord", "religious term"),
    ("God", "religious term"),
    ("Good morning", "greeting"),
    ("Good afternoon", "greeting"),
]


def seed(apps, schema_editor):
    AllowListTerm = apps.get_model("annotations", "AllowListTerm")
    for term, note in TERMS:
        AllowListTerm.objects.get_or_create(term=term, defaults={"note": note})


def unseed(apps, schema_editor):
    AllowListTerm = apps.get_model("annotations", "AllowListTerm")
    AllowListTerm.objects.filter(term__in=[t for t, _ in TERMS], created_by__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("annotations", "0002_trained_model")]

    operations = [migrations.RunPython(seed, unseed)]
