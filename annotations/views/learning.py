"""The learning page (leads): which domain model the ensemble reads, retraining it on the
approved transcripts (a button; also every N approvals), its progress with elapsed time
and ETA, both figures of each retraining, and a one-click rollback."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from annotations.selectors.domain_model import domain_model_status
from annotations.services import learning, learning_loop, learning_queue
from anonreview import roles
from transcripts.services import jobs


def _rows(metrics: dict) -> list[dict]:
    """Rows for ``annotations/_prf_table.html``: overall first, then each label."""
    rows = []
    # a retraining's full figures are its selection set's (the gate keeps exact counts)
    overall = (metrics.get("selection") or {}).get("overall") or metrics.get("overall") or {}
    if overall:
        rows.append({"name": "overall", **overall})
    for label, figures in (metrics.get("labels") or {}).items():
        rows.append({"name": label, **figures})
    return rows


def _lead(request) -> None:
    if not roles.is_lead(request.user):
        raise PermissionDenied("Only leads train detectors.")


def learning_page(request):
    """GET: the page (``?partial=history`` for the polled history table); POST: retrain."""
    _lead(request)
    if request.method == "POST":
        try:
            model = learning_queue.retrain_start(user=request.user, trigger="button")
        except learning.LearningError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Retraining queued as model {model.pk}.")
        return redirect("annotations:learning")

    # Nothing stays "Training" forever: dead workers' jobs and their rows end here too.
    jobs.jobs_fail_stale()
    learning.trained_models_close_orphans()
    models = list(learning.trained_model_list())
    active = learning_loop.active_model()
    latest_ready = next(
        (m for m in models if m.status == m.Status.READY and m.kind == m.Kind.DOMAIN), None
    )
    context = {
        "models": models,
        "job": learning.training_job_latest(),
        "active_job": learning.training_job_active(),
        "gold_count": learning.gold_transcripts().count(),
        "active": active,
        "retrain_every": learning_queue.retrain_every(),
        "since_last": learning_queue.approvals_since_last_training(),
        "latest_ready": latest_ready,
        "latest_rows": _rows(latest_ready.metrics) if latest_ready else [],
        "domain_status": domain_model_status(),
    }
    template = "annotations/learning.html"
    if request.htmx and request.GET.get("partial") == "history":
        template += "#history"
    return render(request, template, context)


@require_POST
def learning_register(request):
    """Queue the registration of a model directory (``learning_queue.register_queue``)."""
    _lead(request)
    path = (request.POST.get("path") or "").strip()
    if not path:
        messages.error(request, "Give the folder of the model to register.")
        return redirect("annotations:learning")
    try:
        model = learning_queue.register_queue(path=path, user=request.user)
    except learning.LearningError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request, f"Model {model.pk} registered; it is scored on the gate documents now."
        )
    return redirect("annotations:learning")


@require_POST
def learning_rollback(request):
    _lead(request)
    try:
        now = learning_loop.trained_model_rollback(user=request.user)
    except learning.LearningError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            f"Rolled back: model {now.pk} is active again."
            if now
            else "Rolled back: the shipped model is active again.",
        )
    return redirect("annotations:learning")
