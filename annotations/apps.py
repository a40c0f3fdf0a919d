import os
import sys

from django.apps import AppConfig


class AnnotationsConfig(AppConfig):
    name = "annotations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # transcripts never imports annotations: it calls what we register here.
        from annotations.services.annotation import suggestions_copy
        from annotations.services.annotation_queue import annotation_enqueue
        from annotations.services.learning import trained_models_fail_for_job
        from transcripts import hooks

        hooks.register(
            annotation_start=annotation_enqueue,
            suggestions_copy=suggestions_copy,
            job_failed=trained_models_fail_for_job,
        )
        # A worker started with ANONREVIEW_PRELOAD_DETECTORS=1 (`make run`, bench_corpus)
        # loads the models before taking its first job (docs/speed.md).
        # A worker's priority is lowered first: loading and warming the models takes the
        # cores for many seconds, at every restart too, and must not slow the web server
        # down (a web server given the variable by mistake keeps its own priority).
        if os.environ.get("ANONREVIEW_PRELOAD_DETECTORS") == "1":
            from annotations.services.annotation import detectors_preload
            from anonreview.core.workers import process_lower_priority

            if "db_worker" in sys.argv[1:2]:
                process_lower_priority()

            detectors_preload(ready_file=os.environ.get("ANONREVIEW_READY_FILE", ""))
