"""Actions the page still held when it was left (issue 21: nothing typed is lost).

``review.js`` sends what it had not sent yet in one ``keepalive`` request as the page
goes away; they run here in order, each through the review's dispatcher and services
(one audit event each, as if sent one by one). A span that an earlier action of the
batch changed is acted on at its new version; ``version_after`` says the page had sent
an action on that span that may land first: its current version is used when the
span's last change is this user's own. Any other stale version is a conflict and skips
that action only.
"""

import json

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST

from annotations import locking
from annotations.models import Span
from annotations.services import review as services
from annotations.views.review import ACTIONS, _do, _transcript
from anonreview.core.models import AuditEvent

BATCH_MAX = 200


class _Post(dict):
    """The ``request.POST`` an action reads (``get`` and ``getlist``)."""

    def getlist(self, key):
        value = self.get(key)
        if value is None:
            return []
        return value if isinstance(value, list) else [value]


def _own_latest(span_id: int, user) -> bool:
    actor = (
        AuditEvent.objects.filter(span_id=span_id, event_type__startswith="review.")
        .order_by("-id")
        .values_list("actor_id", flat=True)
        .first()
    )
    return actor == user.pk


@require_POST
def review_batch(request: HttpRequest, transcript_id: int) -> JsonResponse:
    transcript = _transcript(request, transcript_id)
    try:
        items = json.loads(request.body or b"{}").get("actions", [])[:BATCH_MAX]
    except (ValueError, AttributeError):
        return JsonResponse({"error": "Not a batch of actions."}, status=400)
    results, changed = [], set()
    original = request.POST
    try:
        for item in items:
            action = str(item.get("action", ""))
            values = {k: v for k, v in (item.get("values") or {}).items() if v is not None}
            if action not in ACTIONS or action == "resume":
                results.append({"action": action, "status": 400})
                continue
            span_id = values.get("span")
            if span_id and (str(span_id) in changed or values.get("version_after")):
                if str(span_id) in changed or _own_latest(int(span_id), request.user):
                    current = Span.objects.filter(pk=span_id).values_list("version", flat=True)
                    values["version"] = str(current.first() or values.get("version", ""))
            values["confirm"] = "yes"
            request.POST = _Post(
                {k: v if isinstance(v, list) else str(v) for k, v in values.items()}
            )
            try:
                with services.review_touched() as touched:
                    message, _focus = _do(request, transcript, action)
                changed |= {str(i) for i in touched.spans}
                results.append({"action": action, "status": 200, "message": message})
            except (services.ReviewError, locking.VersionError) as exc:
                results.append({"action": action, "status": 409, "message": str(exc)})
    finally:
        request.POST = original
    return JsonResponse({"results": results})
