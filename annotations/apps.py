import logging

from django.apps import AppConfig

logger = logging.getLogger(__name__)


def _recompute_dashboard(sender, transcript, actor, **kwargs) -> None:
    """After each approval, the lead's dashboard is recomputed as a job (the stored
    suggestions are scored; detectors are not re-run), so its figures need no click."""
    from annotations.services import measurements

    try:
        measurements.dashboard_enqueue(user=actor, rerun=False)
    except Exception as exc:  # the approval stands; the lead can still press Recompute
        logger.warning("dashboard recompute not queued: %s", exc.__class__.__name__)


class AnnotationsConfig(AppConfig):
    name = "annotations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from transcripts.signals import transcript_approved

        transcript_approved.connect(_recompute_dashboard, dispatch_uid="dashboard-after-approval")
