from django.shortcuts import render

from transcripts import selectors


def transcript_list(request):
    """The queue: transcripts the user may see, with state, assignees and progress."""
    transcripts = selectors.transcript_list(user=request.user)
    state = request.GET.get("state")
    if state:
        transcripts = transcripts.filter(state=state)
    return render(
        request,
        "transcripts/list.html",
        {
            "transcripts": transcripts,
            "jobs": selectors.job_list_active(user=request.user),
            "state": state or "",
        },
    )
