"""The measurement dashboard: leads only, recompute as a job, tables, plots, downloads."""

import csv
import io
import json

import pytest
from django.urls import reverse

from annotations.models import Span
from annotations.services import measurements
from tests.factories import make_suggestion, make_transcript
from transcripts.models import Job, Transcript

S = Transcript.State
TEXT = "ALDEN: Mr. Quill lives in Fresno.\n"


@pytest.fixture
def approved(annotator):
    """One approved transcript: ALDEN and Quill proposed and accepted, "lives" proposed
    and rejected, Fresno added → PERSON P 2/3 R 1; LOCATION R 0; overall P 2/3 R 2/3."""
    t = make_transcript(TEXT, state=S.APPROVED, assignees=[annotator])
    for word, label, status, detector in (
        ("ALDEN", "PERSON", "accepted", "cover"),
        ("Quill", "PERSON", "accepted", "cover"),
        ("lives", "PERSON", "rejected", "spacy"),
        ("Fresno", "LOCATION", "added", "human"),
    ):
        start = t.text.index(word)
        if status == "added":  # the reviewer's own span: no proposal behind it
            Span.objects.create(
                transcript=t,
                start=start,
                end=start + len(word),
                label=label,
                status=status,
                provenance=[{"detector": detector, "score": 1.0}],
            )
            continue
        make_suggestion(
            t, start, start + len(word), label, detectors=[detector], score=1.0, status=status
        )
    return t


def recompute(client, django_capture_on_commit_callbacks, **data):
    with django_capture_on_commit_callbacks(execute=True):
        return client.post(reverse("annotations:dashboard-recompute"), data)


def test_dashboard_is_for_leads_only(client, annotator):
    client.force_login(annotator)
    assert client.get(reverse("annotations:dashboard")).status_code == 403
    assert client.post(reverse("annotations:dashboard-recompute")).status_code == 403
    assert client.get(reverse("annotations:dashboard-download", args=["json"])).status_code == 403


def test_empty_dashboard_invites_a_recompute(client, lead):
    client.force_login(lead)
    html = client.get(reverse("annotations:dashboard")).content.decode()
    assert 'id="no-figures"' in html and 'id="recompute"' in html
    assert client.get(reverse("annotations:dashboard-download", args=["json"])).status_code == 404


def test_recompute_job_fills_the_tables_and_plots(
    client, lead, approved, django_capture_on_commit_callbacks
):
    client.force_login(lead)
    response = recompute(client, django_capture_on_commit_callbacks)  # no "rerun": no ablation
    assert response.status_code == 302
    job = measurements.dashboard_latest()
    assert job is not None and job.status == Job.Status.DONE and job.kind == Job.Kind.EVALUATE
    html = client.get(reverse("annotations:dashboard")).content.decode()
    # Table 3, overall row: exact P = 2/3, R = 2/3.
    overall = html.split('data-row="overall"')[1].split("</tr>")[0]
    assert '<td data-metric="exact-p">0.667</td>' in overall
    assert '<td data-metric="exact-r">0.667</td>' in overall
    person = html.split('id="table3"')[1].split('data-row="PERSON"')[1].split("</tr>")[0]
    assert (
        '<td data-metric="exact-p">0.667</td>' in person
        and '<td data-metric="exact-r">1.000</td>' in person
    )
    assert 'id="chart-f1"' in html and "<svg" in html and 'id="chart-effort"' not in html
    assert 'id="table8-unavailable"' in html
    # The human marker is no detector: Table 5 has cover and spacy only.
    table5 = html.split('id="table5"')[1].split("</section>")[0]
    assert 'data-row="cover"' in table5 and 'data-row="spacy"' in table5 and "human" not in table5


def test_downloads_give_json_and_csv_of_the_latest_snapshot(
    client, lead, approved, django_capture_on_commit_callbacks
):
    client.force_login(lead)
    recompute(client, django_capture_on_commit_callbacks)
    response = client.get(reverse("annotations:dashboard-download", args=["json"]))
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert data["table3"]["overall"]["exact"]["tp"] == 2
    assert data["corpus"]["labels"]["PERSON"]["count"] == 2
    response = client.get(
        reverse("annotations:dashboard-download", args=["csv"]), {"table": "table3"}
    )
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    overall = next(r for r in rows if r["label"] == "overall" and r["level"] == "exact")
    assert (overall["tp"], overall["fp"], overall["fn"]) == ("2", "1", "1")
    assert float(overall["f1"]) == pytest.approx(2 / 3)
    for table in ("table5", "table8", "corpus", "agreement", "effort"):
        assert (
            client.get(
                reverse("annotations:dashboard-download", args=["csv"]), {"table": table}
            ).status_code
            == 200
        )
    assert (
        client.get(
            reverse("annotations:dashboard-download", args=["csv"]), {"table": "nope"}
        ).status_code
        == 404
    )


def test_a_failing_ablation_is_reported_and_keeps_the_other_figures(lead, approved, settings):
    settings.DETECTORS = [{"NAME": "engine.detectors.does_not_exist.Nothing", "OPTIONS": {}}]
    snapshot = measurements.dashboard_compute(rerun=True)
    assert snapshot["table8"]["available"] is False and snapshot["table8"]["reason"]
    assert snapshot["table3"]["overall"]["exact"]["tp"] == 2


def test_dashboard_shows_decisions_by_kind_time_on_task_and_agreement_references(
    client, lead, annotator, django_capture_on_commit_callbacks
):
    from annotations.services import review
    from annotations.services import workflow as wf

    t = make_transcript("ALDEN: Mr. Quill met Ann Lee.\n", assignees=[annotator])
    spans = {}
    for word in ("ALDEN", "Quill", "Ann", "Lee"):
        start = t.text.index(word)
        spans[word] = make_suggestion(t, start, start + len(word), "PERSON", detectors=["spacy"])
    wf.transcript_start_review(transcript=t, actor=annotator)
    review.span_accept(span=spans["ALDEN"], actor=annotator)
    review.spans_accept_all(transcript=t, actor=annotator, label="PERSON")
    wf.transcript_submit(transcript=t, actor=annotator)
    client.force_login(lead)
    recompute(client, django_capture_on_commit_callbacks)
    html = client.get(reverse("annotations:dashboard")).content.decode()
    row = html.split('id="decisions"')[1].split(f'data-row="{t.pk}"')[1].split("</tr>")[0]
    assert '<td data-metric="one_by_one">1 (1)</td>' in row
    assert '<td data-metric="label">1 (3)</td>' in row
    assert 'data-metric="spans-decided">4<' in html
    assert 'id="agreement-references"' in html and "SweLL" in html
    response = client.get(
        reverse("annotations:dashboard-download", args=["csv"]), {"table": "effort"}
    )
    rows = {r["transcript"]: r for r in csv.DictReader(io.StringIO(response.content.decode()))}
    assert (rows[str(t.pk)]["label_actions"], rows[str(t.pk)]["label_spans"]) == ("1", "3")
    assert rows["all"]["spans_decided"] == "4"
    response = client.get(
        reverse("annotations:dashboard-download", args=["csv"]), {"table": "agreement"}
    )
    assert "fleiss_kappa" in response.content.decode().splitlines()[0]
