from django.urls import path

from transcripts.views import importing, jobs, queue

app_name = "transcripts"

urlpatterns = [
    path("", queue.transcript_list, name="list"),
    path("jobs/<int:job_id>/", jobs.job_status, name="job-status"),
    path("import/", importing.transcript_upload, name="upload"),
    path("import/<int:job_id>/", importing.import_job_panel, name="upload-job"),
]
