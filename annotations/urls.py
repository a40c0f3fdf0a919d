from django.urls import path

from annotations.views import (
    allowlist,
    dashboard,
    export,
    learning,
    review,
    review_batch,
    review_forms,
    review_reading,
    review_search,
    workflow,
)

app_name = "annotations"

urlpatterns: list = [
    # The transcript's overview page and the review cycle (URLs under /transcripts/).
    path("transcripts/<int:pk>/", workflow.transcript_detail, name="detail"),
    path(
        "transcripts/<int:pk>/start-review/",
        workflow.transcript_start_review_view,
        name="start-review",
    ),
    path("transcripts/<int:pk>/submit/", workflow.transcript_submit_view, name="submit"),
    path("transcripts/<int:pk>/annotate/", workflow.transcript_annotate_view, name="annotate"),
    path("transcripts/<int:pk>/approve/", workflow.transcript_approve_view, name="approve"),
    path(
        "transcripts/<int:pk>/not-a-leak/", workflow.transcript_not_a_leak_view, name="not-a-leak"
    ),
    path("transcripts/<int:pk>/changes/", workflow.transcript_changes, name="changes"),
    path("transcripts/<int:pk>/return/", workflow.transcript_return_view, name="return"),
    path("transcripts/release/", workflow.transcript_release_view, name="release"),
    path("dashboard/", dashboard.dashboard, name="dashboard"),
    path("dashboard/recompute/", dashboard.dashboard_recompute, name="dashboard-recompute"),
    path("dashboard/download.<str:fmt>", dashboard.dashboard_download, name="dashboard-download"),
    path("export/", export.export_page, name="export"),
    path("learning/", learning.learning_page, name="learning"),
    path("learning/rollback/", learning.learning_rollback, name="learning-rollback"),
    path("learning/register/", learning.learning_register, name="learning-register"),
    path("allow-list/", allowlist.allowlist_page, name="allowlist"),
    path("allow-list/<int:term_id>/delete/", allowlist.allowlist_delete, name="allowlist-delete"),
    path(
        "export/transcripts/<int:transcript_id>/release.txt",
        export.release_text_download,
        name="export-release-text",
    ),
    path("export/release.zip", export.release_zip_download, name="export-release-zip"),
    path("export/key.json", export.key_download, name="export-key"),
    path(
        "export/transcripts/<int:transcript_id>/key.json",
        export.key_download,
        name="export-key-one",
    ),
    path("export/gold/", export.gold_download, name="export-gold"),
    path("transcripts/<int:transcript_id>/review/", review.review_page, name="review"),
    path(
        "transcripts/<int:transcript_id>/review/window/<int:window>/",
        review.review_window,
        name="review-window",
    ),
    path(
        "transcripts/<int:transcript_id>/review/inspector/",
        review.review_inspector,
        name="review-inspector",
    ),
    path(
        "transcripts/<int:transcript_id>/review/read/",
        review_reading.review_reading,
        name="review-reading",
    ),
    path(
        "transcripts/<int:transcript_id>/review/merge-preview/",
        review.review_merge_preview,
        name="review-merge-preview",
    ),
    path(
        "transcripts/<int:transcript_id>/review/batch/",
        review_batch.review_batch,
        name="review-batch",
    ),
    path(
        "transcripts/<int:transcript_id>/review/merge-targets/",
        review_forms.review_merge_targets,
        name="review-merge-targets",
    ),
    path(
        "transcripts/<int:transcript_id>/review/forms/",
        review_forms.review_forms,
        name="review-forms",
    ),
    path(
        "transcripts/<int:transcript_id>/review/forms/occurrences/",
        review_forms.review_forms_occurrences,
        name="review-forms-occurrences",
    ),
    path(
        "transcripts/<int:transcript_id>/review/forms/<str:action>/",
        review_forms.review_forms_action,
        name="review-forms-action",
    ),
    path(
        "transcripts/<int:transcript_id>/review/search/",
        review_search.review_search_view,
        name="review-search",
    ),
    path(
        "transcripts/<int:transcript_id>/review/<str:action>/",
        review.review_action,
        name="review-action",
    ),
]
