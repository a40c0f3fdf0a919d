from django.urls import path

from transcripts.views import audit, importing, jobs, queue, workflow

app_name = "transcripts"

urlpatterns = [
    path("", queue.transcript_list, name="list"),
    path("jobs/<int:job_id>/", jobs.job_status, name="job-status"),
    path("import/", importing.transcript_upload, name="upload"),
    path("import/<int:job_id>/", importing.import_job_panel, name="upload-job"),
    # Workflow (issue 6): overview, assignment, review cycle, release, audit.
    path("<int:pk>/", workflow.transcript_detail, name="detail"),
    path("<int:pk>/assign/", queue.transcript_assign_view, name="assign"),
    path("<int:pk>/start-review/", workflow.transcript_start_review_view, name="start-review"),
    path("<int:pk>/submit/", workflow.transcript_submit_view, name="submit"),
    path("<int:pk>/approve/", workflow.transcript_approve_view, name="approve"),
    path("<int:pk>/return/", workflow.transcript_return_view, name="return"),
    path("<int:pk>/audit/", audit.transcript_audit, name="audit"),
    path("release/", workflow.transcript_release_view, name="release"),
    path("audit/", audit.audit_all, name="audit-all"),
]
