"""Actions the page still held when it was left (nothing typed is lost).

``review_actions.js`` sends what it had not sent yet in one ``keepalive`` request as the page
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


class BatchError(ValueError):
    """The body is not a batch of actions; the message says what is wrong."""


_SCALARS = (str, int, float, bool)


def batch_actions(body: bytes) -> list[tuple[str, dict]]:
    """``(action, values)`` of each item of a batch's JSON body (at most ``BATCH_MAX``),
    ``None`` values left out. Raises ``BatchError`` with a sentence for anything but
    ``{"actions": [{"action": str, "values": {name: scalar or list of scalars}}]}`` or
    for a span id that is not a number."""
    try:
        data = json.loads(body or b"{}")
    except ValueError as exc:
        raise BatchError("Not a batch of actions: the body is not JSON.") from exc
    if not isinstance(data, dict) or not isinstance(data.get("actions", []), list):
        raise BatchError('Not a batch of actions: expected {"actions": [...]}.')
    items = []
    for n, item in enumerate(data.get("actions", [])[:BATCH_MAX], start=1):
        if not isinstance(item, dict) or not isinstance(item.get("action", ""), str):
            raise BatchError(f'Action {n} is not {{"action": name, "values": {{...}}}}.')
        values = item.get("values") or {}
        if not isinstance(values, dict):
            raise BatchError(f"The values of action {n} are not a set of named values.")
        values = {k: v for k, v in values.items() if v is not None}
        for key, value in values.items():
            ok = isinstance(value, _SCALARS) or (
                isinstance(value, list) and all(isinstance(v, _SCALARS) for v in value)
            )
            if not ok:
                raise BatchError(f"The value {key!r} of action {n} is neither text nor a number.")
        span = values.get("span")
        digits = str(span).strip()
        if span is not None and (
            isinstance(span, bool) or not digits.isdigit() or len(digits) > 18
        ):
            raise BatchError(f"The span of action {n} is not a span id.")
        items.append((item.get("action", ""), values))
    return items


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
        items = batch_actions(request.body)
    except BatchError as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    results, changed = [], set()
    original = request.POST
    try:
        for action, values in items:
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
                {
                    k: [str(x) for x in v] if isinstance(v, list) else str(v)
                    for k, v in values.items()
                }
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
