"""Review actions on spans and reference groups (the review workspace writes through these).

Every action is one ``@transaction.atomic`` service that

* checks the actor may change the transcript (assignee, lead or admin; state editable),
* checks the span's ``version`` (optimistic locking: a stale version raises ``SpanConflict``),
* writes the change and one ``AuditEvent`` (``review.<action>``) whose ``before``/``after``
  hold snapshots of every span the action touched, and
* moves a ``ready`` transcript to ``in_review`` the first time someone acts on it.

``review_undo`` reverts the actor's latest review action on a transcript from those
snapshots (any depth; it refuses when someone changed the spans since). Offsets are
characters into ``Transcript.text``, end exclusive.

Modules: ``permissions`` (who may edit, errors), ``snapshots`` (audit snapshots, locking,
versioned saves), ``geometry`` (word boundaries, occurrences), ``spans`` (single-span and
many-span actions), ``exceptions`` ("not a leak here"), ``bulk`` (a surface form, a group, a page or a label at once, one
undo step each), ``carried`` (confirm carried proposals: a form or a label at once, one undo step),
``touched`` (what an action changed, for the view), ``groups`` (reference groups: assign, merge, split, candidates) and
``undo``. Import from this package; the names below are its API.
"""

from annotations.services.review.bulk import (
    CONFIRM_ABOVE,
    bulk_size,
    spans_accept_form,
    spans_accept_page,
    spans_reject_all,
    spans_reject_form,
)
from annotations.services.review.carried import CONFIRM_ACTION, spans_confirm_carried
from annotations.services.review.exceptions import (
    NOT_A_LEAK_ACTION,
    leak_exception_add,
    leak_exception_add_all,
)
from annotations.services.review.geometry import occurrences, snap_to_words, word_step
from annotations.services.review.groups import (
    entity_merge,
    entity_split,
    entity_split_form,
    review_assign_entities,
)
from annotations.services.review.permissions import (
    LEAD_EDITABLE_STATES,
    ReviewError,
    ReviewPermissionError,
    SpanConflict,
    review_edit_refusal,
    review_resume,
)
from annotations.services.review.snapshots import (
    EVENT_PREFIX,
    HUMAN,
    UNDO_EVENT,
    span_snapshot,
    spans_bulk_save,
)
from annotations.services.review.spans import (
    OCCURRENCE,
    span_accept,
    span_add,
    span_apply_to_all,
    span_delete,
    span_flag,
    span_reject,
    span_relabel,
    span_resize,
    spans_accept_all,
    spans_relabel_form,
)
from annotations.services.review.touched import Touched, review_touched
from annotations.services.review.undo import review_undo, review_undoable

__all__ = [
    "CONFIRM_ABOVE", "CONFIRM_ACTION", "EVENT_PREFIX", "HUMAN", "LEAD_EDITABLE_STATES", "NOT_A_LEAK_ACTION", "OCCURRENCE",
    "UNDO_EVENT",
    "ReviewError", "ReviewPermissionError", "SpanConflict", "Touched",
    "entity_merge", "entity_split", "entity_split_form", "leak_exception_add", "leak_exception_add_all", "occurrences",
    "review_assign_entities",
    "review_edit_refusal", "review_resume", "review_touched", "review_undo", "review_undoable",
    "bulk_size", "snap_to_words", "span_accept", "span_add", "span_apply_to_all", "span_delete",
    "span_flag", "span_reject", "span_relabel", "span_resize", "span_snapshot", "spans_accept_all",
    "spans_accept_form", "spans_accept_page", "spans_bulk_save", "spans_confirm_carried",
    "spans_reject_all",
    "spans_reject_form", "spans_relabel_form", "word_step",
]  # fmt: skip
