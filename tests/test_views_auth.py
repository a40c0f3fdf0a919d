import pytest
from django.urls import reverse

from tests.factories import make_transcript


@pytest.mark.parametrize("url", ["/", "/transcripts/", "/transcripts/jobs/1/"])
def test_every_page_requires_login(client, db, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_login_page_is_public(client, db):
    assert client.get(reverse("login")).status_code == 200


def test_transcript_list_shows_only_assigned_to_annotator(client, annotator, other_annotator):
    make_transcript(assignees=[annotator], title="Hearing Alpha")
    make_transcript(assignees=[other_annotator], title="Hearing Beta")
    client.force_login(annotator)
    body = client.get(reverse("transcripts:list")).content.decode()
    assert "Hearing Alpha" in body
    assert "Hearing Beta" not in body


def test_lead_sees_every_transcript_in_the_list(client, lead, annotator):
    make_transcript(assignees=[annotator], title="Hearing Alpha")
    make_transcript(title="Hearing Beta")
    client.force_login(lead)
    body = client.get(reverse("transcripts:list")).content.decode()
    assert "Hearing Alpha" in body and "Hearing Beta" in body
