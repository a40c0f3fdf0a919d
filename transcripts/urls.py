from django.urls import path

from transcripts.views import audit, importing, jobs, queue

app_name = "transcripts"

urlpatterns = [
    path("", queue.transcript_list, name="list"),
    path("jobs/<int:job_id>/", jobs.job_status, name="job-status"),
    path("jobs/<int:job_id>/cancel/", jobs.job_cancel, name="job-cancel"),
    path("import/", importing.transcript_upload, name="upload"),
    path("import/<int:job_id>/", importing.import_job_panel, name="upload-job"),
    # Assignment and audit (the overview and review-cycle pages are in annotations.urls).
    path("<int:pk>/assign/", queue.transcript_assign_view, name="assign"),
    path("<int:pk>/audit/", audit.transcript_audit, name="audit"),
    path("audit/", audit.audit_all, name="audit-all"),
]
