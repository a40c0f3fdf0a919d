"""The review page's search over the whole text: every match, marked or not, with its
place and the spans on it (``annotations.selectors.search``). The query travels in the
query string (``find``, ``word``): the access log and the app's log formatter write
URLs without it (``anonreview/logs.py``), and this view logs nothing."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from annotations.selectors.search import MIN_QUERY, review_search
from annotations.services import review as services
from transcripts.models import Transcript


@require_GET
def review_search_view(request: HttpRequest, transcript_id: int) -> HttpResponse:
    transcript = get_object_or_404(Transcript.objects.visible_to(request.user), pk=transcript_id)
    query = request.GET.get("find", "")[:200]
    whole_word = request.GET.get("word") in {"1", "on", "true"}
    result = review_search(transcript=transcript, query=query, whole_word=whole_word)
    refusal = services.review_edit_refusal(transcript=transcript, user=request.user)
    return render(
        request,
        "annotations/review_search.html",
        {
            "transcript": transcript,
            "result": result,
            "min_query": MIN_QUERY,
            "can_edit": refusal is None,
        },
    )
