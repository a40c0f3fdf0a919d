"""The upload page: several files at once, per-file results and errors, job progress,
and refusal for annotators."""

import functools

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from engine.synthetic import generate_hearing, render_pdf_bytes
from transcripts.models import Job, Transcript
from transcripts.services import jobs

SPEECH = b"PRESIDING COMMISSIONER ALDEN: Good morning.\nATTORNEY VANCE: Good morning.\n"
LIGHT_DETECTORS = [{"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}}]


@functools.cache
def small_pdf() -> bytes:
    return render_pdf_bytes(generate_hearing(9, words=900))


def uploads():
    return [
        SimpleUploadedFile("hearing.pdf", small_pdf(), content_type="application/pdf"),
        SimpleUploadedFile("plain.txt", SPEECH, content_type="text/plain"),
        SimpleUploadedFile("fake.pdf", b"hello, not a pdf", content_type="application/pdf"),
        SimpleUploadedFile("empty.txt", b"", content_type="text/plain"),
    ]


@pytest.fixture
def light(settings):
    settings.DETECTORS = LIGHT_DETECTORS


def test_lead_uploads_several_files_and_sees_each_result(
    client, lead, annotator, light, django_capture_on_commit_callbacks
):
    client.force_login(lead)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("transcripts:upload"), {"files": uploads(), "assign": annotator.pk}
        )
    assert response.status_code == 302
    page = client.get(response["Location"])
    html = page.content.decode()
    assert page.status_code == 200
    assert "2 of 4 files imported" in html
    assert "This is not a PDF" in html and "The file is empty." in html
    assert html.count('data-ok="true"') == 2 and html.count('data-ok="false"') == 2
    assert Transcript.objects.filter(assignees=annotator).count() == 2
    job = Job.objects.get(kind=Job.Kind.IMPORT, batch__isnull=True)
    assert job.status == Job.Status.DONE and job.created_by == lead
    assert job.batch_jobs.count() == 4  # one import Job per file, under the batch
    assert 'class="jobs annotation-jobs"' in html  # the annotation jobs it queued, with bars
    assert html.count('data-status="done"') >= 3  # import + two annotation jobs


def test_htmx_upload_returns_the_panel_and_a_repeat_is_reported(
    client, lead, light, django_capture_on_commit_callbacks
):
    client.force_login(lead)
    url = reverse("transcripts:upload")
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                url,
                {"files": [SimpleUploadedFile("plain.txt", SPEECH)]},
                headers={"HX-Request": "true"},
            )
        html = response.content.decode()
        # The panel as queued (tests hold the transaction open until the block ends).
        assert response.status_code == 200 and "<html" not in html
        assert 'class="import-job card"' in html and 'hx-trigger="every 1s"' in html
    job = Job.objects.filter(kind=Job.Kind.IMPORT, batch__isnull=True).first()
    panel = client.get(
        reverse("transcripts:upload-job", args=[job.pk]), headers={"HX-Request": "true"}
    )
    assert panel.status_code == 286 and b"Already imported as transcript" in panel.content
    assert Transcript.objects.count() == 1


def test_panel_polls_while_the_import_runs_and_stops_when_done(client, lead):
    client.force_login(lead)
    job = jobs.job_create(kind=Job.Kind.IMPORT, user=lead)
    url = reverse("transcripts:upload-job", args=[job.pk])
    running = client.get(url, headers={"HX-Request": "true"})
    assert running.status_code == 200 and b'hx-trigger="every 1s"' in running.content
    jobs.job_finish(
        job_id=job.pk,
        result={
            "files": [
                {
                    "path": "x.pdf",
                    "ok": False,
                    "error": "The PDF is encrypted.",
                    "code": "encrypted",
                }
            ]
        },
    )
    done = client.get(url, headers={"HX-Request": "true"})
    assert done.status_code == 286 and b"The PDF is encrypted." in done.content
    assert b'hx-trigger="every 1s"' not in done.content


def test_annotators_are_refused_with_a_message(client, annotator):
    client.force_login(annotator)
    page = client.get(reverse("transcripts:upload"))
    assert page.status_code == 403 and b"Only leads and admins can import" in page.content
    post = client.post(
        reverse("transcripts:upload"), {"files": [SimpleUploadedFile("p.txt", SPEECH)]}
    )
    assert post.status_code == 403 and not Transcript.objects.exists()
    assert b'id="nav-import"' not in client.get(reverse("transcripts:list")).content


def test_lead_sees_the_import_link_and_an_error_without_files(client, lead):
    client.force_login(lead)
    assert b'id="nav-import"' in client.get(reverse("transcripts:list")).content
    response = client.post(reverse("transcripts:upload"), {})
    assert response.status_code == 400 and b"Choose one or more files" in response.content


def test_oversized_upload_is_refused_without_storing_it(
    client, admin_user, settings, django_capture_on_commit_callbacks
):
    settings.IMPORT_MAX_FILE_BYTES = 50
    client.force_login(admin_user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("transcripts:upload"), {"files": [SimpleUploadedFile("big.txt", SPEECH)]}
        )
    html = client.get(response["Location"]).content.decode()
    assert "too large" in html and not Transcript.objects.exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_upload_page_in_a_browser_shows_results_per_file(
    login_page, live_server, lead, light, tmp_path
):
    good = tmp_path / "plain.txt"
    good.write_bytes(SPEECH)
    bad = tmp_path / "fake.pdf"
    bad.write_bytes(b"not a pdf at all")
    page = login_page(lead)
    page.goto(live_server.url + reverse("transcripts:upload"))
    page.set_input_files("#upload-files", [str(good), str(bad)])
    page.click("form.upload-form button[type=submit]")
    page.wait_for_selector("#import-results")
    rows = page.locator("#import-results tr.import-file")
    assert rows.count() == 2
    assert "This is not a PDF" in page.locator("tr.import-error").inner_text()
    assert "Imported as transcript" in page.locator("tr.import-ok").inner_text()


def test_job_bar_does_not_repeat_the_status_word(lead):
    from django.template.loader import render_to_string

    job = jobs.job_create(kind=Job.Kind.IMPORT, user=lead, message="waiting")
    jobs.job_finish(job_id=job.pk, message="Done: 129 suggestions")
    job.refresh_from_db()
    html = render_to_string("transcripts/_job.html", {"job": job})
    assert "Done: 129 suggestions" in html and "Done: Done" not in html
    # A job ends once (compare-and-set, issue 23): a second job for the second wording.
    job = jobs.job_create(kind=Job.Kind.IMPORT, user=lead, message="waiting")
    jobs.job_finish(job_id=job.pk, message="Imported 2 of 2 file(s)")
    job.refresh_from_db()
    html = render_to_string("transcripts/_job.html", {"job": job})
    assert f"{job.get_status_display()}: Imported 2 of 2 file(s)" in html


@pytest.mark.slow
@pytest.mark.skipif(
    __import__("shutil").which("tesseract") is None, reason="tesseract-ocr is not installed"
)
def test_uploaded_scan_is_ocrd_in_the_background_job_and_its_doubtful_words_are_shown(
    client, lead, light, django_capture_on_commit_callbacks
):
    from engine.synthetic.families import family_document
    from engine.synthetic.family_render import render_pdf, render_scan

    scan = render_scan(render_pdf(family_document(8, "federal", words=250)), seed=8)
    client.force_login(lead)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("transcripts:upload"),
            {"files": [SimpleUploadedFile("scan.pdf", scan, content_type="application/pdf")]},
        )
    assert response.status_code == 302
    job = Job.objects.get(kind=Job.Kind.IMPORT, batch__isnull=True)  # the batch
    assert job.status == Job.Status.DONE and job.progress == 100
    (result,) = job.result["files"]
    assert result["ok"] and any("read by OCR" in n for n in result["notices"])
    results = client.get(response["Location"]).content.decode()
    assert 'class="muted import-notice">This PDF is a scan' in results
    transcript = Transcript.objects.get(pk=result["transcript_id"])
    report = transcript.metadata["ocr"]
    assert report["pages"] >= 3 and "THE COURT:" in transcript.text
    page = client.get(reverse("annotations:detail", args=[transcript.pk])).content.decode()
    assert 'id="ocr-summary"' in page and f"{report['pages']} scanned pages" in page
