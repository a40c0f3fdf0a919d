from django.apps import AppConfig


class TranscriptsConfig(AppConfig):
    name = "transcripts"
    default_auto_field = "django.db.models.BigAutoField"
