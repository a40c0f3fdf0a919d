import os

from django.apps import AppConfig


class AnnotationsConfig(AppConfig):
    name = "annotations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A worker started with ANONREVIEW_PRELOAD_DETECTORS=1 (`make run`, bench_corpus)
        # loads the models before taking its first job (docs/speed.md).
        if os.environ.get("ANONREVIEW_PRELOAD_DETECTORS") == "1":
            from annotations.services.annotation import detectors_preload

            detectors_preload(ready_file=os.environ.get("ANONREVIEW_READY_FILE", ""))
