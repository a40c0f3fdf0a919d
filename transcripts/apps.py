from django.apps import AppConfig


class TranscriptsConfig(AppConfig):
    name = "transcripts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import pre_delete

        from transcripts.models import Transcript
        from transcripts.services.deletion import erase_on_delete

        # Deleting a transcript, by any path, erases its personal data everywhere.
        pre_delete.connect(erase_on_delete, sender=Transcript, dispatch_uid="transcript-erase")
