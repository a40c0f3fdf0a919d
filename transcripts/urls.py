from django.urls import path

from transcripts.views import jobs, queue

app_name = "transcripts"

urlpatterns = [
    path("", queue.transcript_list, name="list"),
    path("jobs/<int:job_id>/", jobs.job_status, name="job-status"),
]
