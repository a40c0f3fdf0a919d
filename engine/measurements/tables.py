"""Flatten a dashboard snapshot (``annotations.services.measurements.dashboard_compute``)
into rows for pages and CSV downloads. Django-free."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from engine.measurements.effort import DECISION_KINDS

TABLES = ("table3", "table5", "table5_alone", "table8", "corpus", "agreement", "effort")
PRF_KEYS = ("p", "r", "f1", "tp", "fp", "fn")


def _prf_rows(prefix: list, scores: dict) -> Iterator[list]:
    for level in ("exact", "token"):
        s = scores.get(level) or {}
        yield [*prefix, level, *(s.get(k) for k in PRF_KEYS)]


def rows(snapshot: dict, table: str) -> tuple[list[str], list[list]]:
    """``(header, rows)`` of one table of the snapshot."""
    if table == "table3":
        t3 = snapshot.get("table3") or {}
        out = list(_prf_rows(["overall"], t3.get("overall") or {}))
        for label, scores in (t3.get("labels") or {}).items():
            out += list(_prf_rows([label], scores))
        return ["label", "level", *PRF_KEYS], out
    if table == "table5":
        out = []
        for name, scores in (snapshot.get("table5") or {}).items():
            out += list(_prf_rows([name], scores))
        return ["detector", "level", *PRF_KEYS], out
    if table == "table5_alone":
        alone = ((snapshot.get("table8") or {}).get("with") or {}).get("alone") or {}
        out = []
        for name, scores in alone.items():
            out += list(_prf_rows([name, "overall"], scores))
            for label, per_label in (scores.get("labels") or {}).items():
                out += list(_prf_rows([name, label], per_label))
        return ["detector", "label", "level", *PRF_KEYS], out
    if table == "table8":
        t8 = snapshot.get("table8") or {}
        out = []
        if t8.get("available"):
            for variant in ("with", "without"):
                result = t8.get(variant) or {}
                name = "all detectors" if variant == "with" else f"without {t8.get('detector')}"
                out += list(_prf_rows([name, "overall"], result.get("overall") or {}))
                for label, scores in (result.get("labels") or {}).items():
                    out += list(_prf_rows([name, label], scores))
        return ["ensemble", "label", "level", *PRF_KEYS], out
    if table == "corpus":
        c = snapshot.get("corpus") or {}
        out = [
            ["all", c.get("entities"), "", "", c.get("per_transcript"), c.get("per_1000_tokens")]
        ]
        for label, v in (c.get("labels") or {}).items():
            out.append(
                [
                    label,
                    v.get("count"),
                    v.get("groups"),
                    v.get("share"),
                    v.get("per_transcript"),
                    v.get("per_1000_tokens"),
                ]
            )
        return [
            "label",
            "entities",
            "reference_groups",
            "share",
            "per_transcript",
            "per_1000_tokens",
        ], out
    if table == "agreement":
        a = snapshot.get("agreement") or {}
        span = a.get("span") or {}
        parts = a.get("span_name_parts") or {}
        out = [
            [
                "all",
                a.get("kappa"),
                a.get("fleiss_kappa"),
                a.get("alpha"),
                *(span.get(k) for k in PRF_KEYS),
                parts.get("f1"),
            ]
        ]
        for label, v in (a.get("labels") or {}).items():
            s = v.get("span") or {}
            out.append([label, v.get("kappa"), "", "", *(s.get(k) for k in PRF_KEYS), ""])
        for ref in a.get("references") or []:
            out.append([f"reference: {ref['source']}", ref.get("value"), "", "", *[""] * 7])
        return [
            "label",
            "kappa",
            "fleiss_kappa",
            "alpha",
            *(f"span_{k}" for k in PRF_KEYS),
            "span_f1_name_parts",
        ], out
    if table == "effort":
        e = snapshot.get("effort") or {}
        keys = [
            "tokens",
            "actions",
            "actions_per_1000_tokens",
            "suggestions",
            "accepted_unchanged",
            "accepted_unchanged_share",
            "added",
            "review_seconds",
        ]
        out = [
            [
                "all",
                *(e.get(k if k != "added" else "added_total") for k in keys[:7]),
                e.get("review_seconds_total"),
            ]
        ]
        for r in e.get("per_transcript") or []:
            out.append([r.get("transcript"), *(r.get(k) for k in keys)])
        # decisions by kind and time on task (engine.measurements.effort)
        header = ["transcript", *keys]
        header += [f"{kind}_{what}" for kind in DECISION_KINDS for what in ("actions", "spans")]
        header += ["spans_decided", "spans_one_by_one_share", "active_seconds"]
        summaries = [e, *(e.get("per_transcript") or [])]
        for row, summary in zip(out, summaries, strict=True):
            decisions = summary.get("decisions") or {}
            for kind in DECISION_KINDS:
                d = decisions.get(kind) or {}
                row += [d.get("actions", 0), d.get("spans", 0)]
            active = summary.get("active_seconds", summary.get("active_seconds_total"))
            row += [summary.get("spans_decided"), summary.get("spans_one_by_one_share"), active]
        return header, out
    raise KeyError(table)


def to_csv(snapshot: dict, table: str) -> str:
    header, body = rows(snapshot, table)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in body:
        writer.writerow(
            ["" if v is None else (f"{v:.6f}" if isinstance(v, float) else v) for v in row]
        )
    return buffer.getvalue()
