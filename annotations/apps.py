from django.apps import AppConfig


class AnnotationsConfig(AppConfig):
    name = "annotations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # transcripts never imports annotations: it calls what we register here.
        from annotations.services.annotation import annotation_enqueue, suggestions_copy
        from transcripts import hooks

        hooks.register(annotation_start=annotation_enqueue, suggestions_copy=suggestions_copy)
