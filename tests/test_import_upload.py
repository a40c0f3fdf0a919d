"""The upload page: several files at once, per-file results and errors, job progress,
and refusal for annotators."""

import functools
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from engine.synthetic import generate_hearing, render_pdf_bytes
from transcripts.models import Job, Transcript
from transcripts.services import jobs
from transcripts.services.upload_staging import import_job_enqueue

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
    # A job ends once (compare-and-set): a second job for the second wording.
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


# --- A 180 MB upload through a real gunicorn answers within seconds --------


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


def _peak_rss_mb(pid: int) -> float:
    """Peak resident memory (VmHWM) of ``pid`` and its children, the largest, in MB."""
    from pathlib import Path

    pids = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        pids += [int(c) for c in (task / "children").read_text().split()]
    peaks = []
    for p in pids:
        for line in Path(f"/proc/{p}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peaks.append(int(line.split()[1]) / 1024)
    return max(peaks)


def _zip_of_four_45mb_files(path) -> int:
    import zipfile

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        for i in range(4):
            archive.writestr(f"hearing-{i}.txt", os.urandom(45 * 1024 * 1024))
    return path.stat().st_size


def _six_45mb_files(tmp_path) -> list:
    paths = []
    for i in range(6):
        path = tmp_path / f"hearing-{i}.txt"
        path.write_bytes(os.urandom(45 * 1024 * 1024))
        paths.append(path)
    return paths


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "shape",
    ["zip", "six_files"],
    ids=["a 180 MB zip of four 45 MB files", "six 45 MB files"],
)
def test_a_big_upload_is_only_staged_by_the_request_under_300_mb(lead, tmp_path, shape):
    # Was "answers within 5 seconds" (a wall-clock assertion: the suite must pass at load
    # 10). The request's work is bounded instead: it streams the files to the staging
    # directory and queues the job, imports nothing, and never holds a file in memory;
    # the seconds are printed for docs/importing.md's table.
    import http.client
    import re
    import subprocess
    import sys
    import time

    from django.conf import settings as django_settings
    from django.test import Client

    from tests.conftest import REPO
    from transcripts.models import StagedUpload

    if shape == "zip":
        archive = tmp_path / "four-hearings.zip"
        size = _zip_of_four_45mb_files(archive)
        assert 180 * 1024 * 1024 <= size <= 200 * 1024 * 1024  # within the 200 MB zip limit
        paths = [archive]
    else:  # each within the 50 MB file limit
        paths = _six_45mb_files(tmp_path)
    client = Client()
    client.force_login(lead)
    session = client.cookies["sessionid"].value
    port = _free_port()
    staging = tmp_path / "staging"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DJANGO_SETTINGS_MODULE="anonreview.settings",
        DATABASE_URL=_database_url(),
        SECRET_KEY=django_settings.SECRET_KEY,  # the test client's session is signed with it
        DEBUG="0",
        HTTPS="0",
        UPLOAD_STAGING_DIR=str(staging),
        FILE_UPLOAD_TEMP_DIR=str(tmp_path),
        TASKS_BACKEND="django_tasks_db.DatabaseBackend",
        LOG_LEVEL="WARNING",
    )
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "anonreview.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request(
                    "GET", "/transcripts/import/", headers={"Cookie": f"sessionid={session}"}
                )
                page = conn.getresponse()
                body = page.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.3)
        assert page.status == 200, body[:500]
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
        cookie = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie") or "").group(1)

        boundary = "----anonreview-test-boundary"
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
            f"{csrf}\r\n"
        ).encode()
        parts = [
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="files"; '
                f'filename="{path.name}"\r\nContent-Type: application/octet-stream\r\n\r\n'
            ).encode()
            for path in paths
        ]
        tail = f"--{boundary}--\r\n".encode()
        length = (
            len(head)
            + sum(len(p) + path.stat().st_size + 2 for p, path in zip(parts, paths, strict=True))
            + len(tail)
        )

        def body_stream():
            yield head
            for part, path in zip(parts, paths, strict=True):
                yield part
                with open(path, "rb") as f:
                    while chunk := f.read(1024 * 1024):
                        yield chunk
                yield b"\r\n"
            yield tail

        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request(
            "POST",
            "/transcripts/import/",
            body=body_stream(),
            headers={
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Content-Length": str(length),
                "Cookie": f"sessionid={session}; csrftoken={cookie}",
            },
        )
        answer = conn.getresponse()
        answer.read()
        seconds = time.perf_counter() - started
        peak_mb = _peak_rss_mb(server.pid)
        assert answer.status == 302, answer.status
        assert "?job=" in answer.getheader("Location")
        total_mb = sum(path.stat().st_size for path in paths) / 2**20
        print(f"{shape} ({total_mb:.0f} MB): {seconds:.2f} s, web peak RSS {peak_mb:.0f} MB")
        assert peak_mb < 300, f"{peak_mb:.0f} MB"
        from transcripts.models import Transcript

        assert not Transcript.objects.exists()  # the worker imports, not the request
        staged = list(StagedUpload.objects.order_by("job_id"))
        assert [s.size for s in staged] == [path.stat().st_size for path in paths]
        assert all((staging / s.path).stat().st_size == s.size for s in staged)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_too_many_files_are_refused_in_words_on_the_upload_page(client, lead, settings):
    # 501 files got a bare "Bad Request (400)".
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 5
    client.force_login(lead)
    files = [SimpleUploadedFile(f"f{i}.txt", b"A: x\n") for i in range(6)]
    response = client.post(reverse("transcripts:upload"), {"files": files})
    assert response.status_code == 400
    assert b"Too many files: at most 5 per upload" in response.content
    assert not Job.objects.exists()


def test_an_empty_zip_is_named_with_the_reason(lead, settings, django_capture_on_commit_callbacks):
    # "job 44 — The import of this file stopped; upload it again". The job names
    # the file by its place in the upload, never by its name (names identify).
    import io
    import zipfile

    buf = io.BytesIO()
    zipfile.ZipFile(buf, "w").close()
    with django_capture_on_commit_callbacks(execute=True):
        batch = import_job_enqueue(
            uploads=[SimpleUploadedFile("hearings.zip", buf.getvalue())], user=lead
        )
    batch.refresh_from_db()
    [outcome] = batch.result["files"]
    assert outcome["path"] == "file 1 (.zip)" and outcome["code"] == "empty"
    assert "hearings" not in str(batch.result) + batch.message
    assert "archive is empty" in outcome["error"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_lead_cancels_a_waiting_upload_in_the_browser(
    login_page, live_server, lead, settings, tmp_path
):
    # No worker runs (the page says so) and the lead cancels from the bar.
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    good = tmp_path / "plain.txt"
    good.write_bytes(SPEECH)
    page = login_page(lead)
    page.goto(live_server.url + reverse("transcripts:upload"))
    page.set_input_files("#upload-files", [str(good)])
    page.click("form.upload-form button[type=submit]")
    bar = page.locator(".import-job .job").first
    assert "No worker is running" in bar.inner_text()
    bar.locator("form.job-cancel button").click()
    page.wait_for_selector("#import-results")
    assert "Cancelled" in page.locator("tr.import-error").inner_text()
    assert not Transcript.objects.exists()
