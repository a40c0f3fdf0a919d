"""The measurement dashboard (leads): Tables 3, 5 and 8, corpus statistics,
agreement, reviewer effort, SVG plots, CSV/JSON downloads, and a button that
recomputes everything as a background job."""

import json

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from annotations.services import dashboard_queue, measurements
from anonreview import roles
from engine.measurements import plots, tables


def _lead(request) -> None:
    if not roles.is_lead(request.user):
        raise PermissionDenied("The dashboard is for leads.")


def _label_rows(result: dict) -> list[dict]:
    rows = [{"name": "overall", **(result.get("overall") or {})}]
    rows += [{"name": label, **scores} for label, scores in (result.get("labels") or {}).items()]
    return rows


def _ablation_rows(t8: dict) -> list[dict]:
    """One row per label (overall first): exact P/R/F1 with and without the detector,
    and the F1 differences at exact and token level."""
    with_all = _label_rows(t8.get("with") or {})
    without = {row["name"]: row for row in _label_rows(t8.get("without") or {})}
    rows = []
    for row in with_all:
        other = without.get(row["name"], {})

        def delta(level, row=row, other=other):
            a, b = (row.get(level) or {}).get("f1"), (other.get(level) or {}).get("f1")
            return None if a is None or b is None else b - a

        rows.append(
            {
                "name": row["name"],
                "with": row.get("exact") or {},
                "without": other.get("exact") or {},
                "delta_exact": delta("exact"),
                "delta_token": delta("token"),
            }
        )
    return rows


def _charts(snapshot: dict) -> dict:
    charts = {}
    t3 = snapshot.get("table3") or {}
    labels = t3.get("labels") or {}
    if labels:
        charts["f1"] = plots.bar_chart(
            [(label, [s["exact"]["f1"], s["token"]["f1"]]) for label, s in labels.items()],
            series=("exact F1", "token F1"),
            title="F1 per label, automatic annotation vs reviewed gold",
        )
    t5 = snapshot.get("table5") or {}
    if t5:
        charts["detectors"] = plots.bar_chart(
            [(name, [s["exact"]["f1"], s["token"]["f1"]]) for name, s in t5.items()],
            series=("exact F1", "token F1"),
            title="F1 per detector alone",
        )
    t8 = snapshot.get("table8") or {}
    if t8.get("available"):
        with_labels = (t8.get("with") or {}).get("labels") or {}
        without_labels = (t8.get("without") or {}).get("labels") or {}
        names = list(dict.fromkeys([*with_labels, *without_labels]))
        charts["ablation"] = plots.bar_chart(
            [
                (
                    label,
                    [
                        (with_labels.get(label) or {}).get("token", {}).get("f1"),
                        (without_labels.get(label) or {}).get("token", {}).get("f1"),
                    ],
                )
                for label in names
            ],
            series=("all detectors", f"without {t8.get('detector')}"),
            title="Token F1 per label, ablation",
        )
    per_day = (snapshot.get("effort") or {}).get("per_day") or []
    if per_day:
        charts["effort"] = plots.line_chart(
            [(day, count) for day, count in per_day],
            title="Review actions per day",
            y_label="actions",
        )
    learning = sorted(
        (
            r
            for r in (snapshot.get("effort") or {}).get("per_transcript") or []
            if r.get("submitted_at")
        ),
        key=lambda r: r["submitted_at"],
    )
    if learning:
        charts["effort_per_transcript"] = plots.line_chart(
            [(f"#{r['transcript']}", r.get("actions_per_1000_tokens") or 0.0) for r in learning],
            title="Review actions per 1,000 tokens, transcripts in order of submission",
            y_label="actions / 1,000 tokens",
        )
    return {key: mark_safe(svg) for key, svg in charts.items()}  # noqa: S308 - built by plots, escaped there


def _learning_curve() -> dict | None:
    """The latest ``bench_learning`` curve and its chart."""
    job = measurements.learning_curve_latest()
    if job is None:
        return None
    result = job.result
    rows = result.get("hearings") or []
    x = [str(r["hearing"]) for r in rows]
    chart = plots.series_chart(
        x,
        [
            ("false suggestions", [r["false_suggestions"] for r in rows]),
            ("carried rejections", [r.get("carried_rejections") or 0 for r in rows]),
            ("missed gold mentions", [r["missed_gold"] for r in rows]),
            ("reviewer inputs", [r["reviewer_inputs"] for r in rows]),
            ("leaks after review", [r["leaks_after_review"] for r in rows]),
        ],
        title="Per hearing (count), in the order they were approved; dashed: retrained",
        markers=[
            (i, f"retrained after hearing {r['hearing']}: {r.get('decision') or ''}")
            for i, r in enumerate(rows)
            if r.get("training_s") is not None
        ],
        width=860,  # five series: the legend needs it
    )
    return {"job": job, "result": result, "rows": rows, "chart": mark_safe(chart)}  # noqa: S308 - built by plots, escaped there


def dashboard(request):
    _lead(request)
    latest = measurements.dashboard_latest()
    snapshot = latest.result if latest else None
    context = {
        "latest": latest,
        "running": measurements.dashboard_running(),
        "snapshot": snapshot,
        "curve": _learning_curve(),
    }
    if snapshot:
        t8 = snapshot.get("table8") or {}
        context.update(
            table3=_label_rows(snapshot.get("table3") or {}),
            table5=[{"name": n, **s} for n, s in (snapshot.get("table5") or {}).items()],
            table8=_ablation_rows(t8) if t8.get("available") else [],
            table5_alone=[
                {"name": n, **scores}
                for n, scores in ((t8.get("with") or {}).get("alone") or {}).items()
            ]
            if t8.get("available")
            else [],
            charts=_charts(snapshot),
        )
    return render(request, "annotations/dashboard.html", context)


@require_POST
def dashboard_recompute(request):
    _lead(request)
    if measurements.dashboard_running():
        messages.info(request, "The dashboard is already being recomputed.")
    else:
        dashboard_queue.dashboard_enqueue(
            user=request.user, rerun=request.POST.get("rerun") == "on"
        )
        messages.success(
            request, "Recomputing the dashboard; the figures appear when the job is done."
        )
    return redirect("annotations:dashboard")


def dashboard_download(request, fmt: str):
    """The latest snapshot as JSON, or one of its tables as CSV (``?table=``)."""
    _lead(request)
    latest = measurements.dashboard_latest()
    if latest is None:
        raise Http404("Nothing computed yet.")
    stamp = latest.updated_at.strftime("%Y%m%d-%H%M%S")
    if fmt == "json":
        response = HttpResponse(
            json.dumps(latest.result, indent=2), content_type="application/json"
        )
        response["Content-Disposition"] = f'attachment; filename="dashboard-{stamp}.json"'
        return response
    if fmt == "csv":
        table = request.GET.get("table", "table3")
        if table not in tables.TABLES:
            raise Http404("No such table.")
        response = HttpResponse(
            tables.to_csv(latest.result, table), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{table}-{stamp}.csv"'
        return response
    raise Http404("Unknown format.")
