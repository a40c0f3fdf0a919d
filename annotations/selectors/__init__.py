"""Read-side queries for the review workspace and the dashboard (HackSoft: selectors read,
services write).

The page shows a transcript by *windows* of a few pages; one query loads every span of
the transcript as plain rows (``review_span_rows``) from which the entity list, the
progress counter and the navigation queue are computed in Python, so no query runs per
span. Offsets are characters into ``Transcript.text``, end exclusive.

Modules: ``rows`` (spans as ``SpanRow``, ``ReviewFilters``, an action's answer rows,
provenance, detectors), ``windows`` (pages, windows, utterances, replacements),
``entities`` (the entity list by label and its SQL headers), ``inspector`` (free
occurrences, merge candidates, spelling variants), ``overview`` (progress counter and
minimap), ``queue`` (the ``j``/``k`` order), ``dashboard`` (gold, the machine's proposals,
double annotation) and ``forms`` (the surface-form table; import it from its module).
Import from this package; the names below are its API.
"""

from annotations.selectors.dashboard import (
    GOLD_STATES,
    GOLD_STATUSES,
    HUMAN_DETECTORS,
    REVIEWED_STATES,
    double_pairs,
    gold_spans,
    gold_transcripts,
    machine_predictions,
    machine_provenance,
    reviewed_transcripts,
)
from annotations.selectors.entities import (
    EntityRow,
    LabelGroup,
    _ref_key,  # the inspector's merge targets sort by it (annotations.views.review_context)
    review_entities,
    review_label_counts,
)
from annotations.selectors.inspector import (
    MergeCandidate,
    SpellingVariant,
    review_free_occurrences,
    review_merge_candidates,
    review_spelling_variants,
)
from annotations.selectors.overview import (
    MinimapCell,
    Progress,
    review_minimap,
    review_minimap_cells,
    review_progress,
    review_progress_counts,
)
from annotations.selectors.queue import review_queue, review_queue_entry
from annotations.selectors.rows import (
    ANSWER_IDS_MAX,
    ANSWER_RANGES_MAX,
    UNDECIDED,
    ReviewFilters,
    SpanRow,
    review_answer_rows,
    review_detectors,
    review_fill_provenance,
    review_span_rows,
)
from annotations.selectors.windows import (
    WINDOW_PAGES,
    Window,
    review_pages,
    review_replacements,
    review_utterances,
    review_window_of_page,
    review_windows,
)

__all__ = [
    "ANSWER_IDS_MAX",
    "ANSWER_RANGES_MAX",
    "GOLD_STATES",
    "GOLD_STATUSES",
    "HUMAN_DETECTORS",
    "REVIEWED_STATES",
    "UNDECIDED",
    "WINDOW_PAGES",
    "EntityRow",
    "LabelGroup",
    "MergeCandidate",
    "MinimapCell",
    "Progress",
    "ReviewFilters",
    "SpanRow",
    "SpellingVariant",
    "Window",
    "_ref_key",
    "double_pairs",
    "gold_spans",
    "gold_transcripts",
    "machine_predictions",
    "machine_provenance",
    "review_answer_rows",
    "review_detectors",
    "review_entities",
    "review_fill_provenance",
    "review_free_occurrences",
    "review_label_counts",
    "review_merge_candidates",
    "review_minimap",
    "review_minimap_cells",
    "review_pages",
    "review_progress",
    "review_progress_counts",
    "review_queue",
    "review_queue_entry",
    "review_replacements",
    "review_span_rows",
    "review_spelling_variants",
    "review_utterances",
    "review_window_of_page",
    "review_windows",
    "reviewed_transcripts",
]
