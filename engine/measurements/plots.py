"""Small server-side SVG charts (no JavaScript, no chart library). Django-free.

Each function returns a complete ``<svg>`` element as a string; every text it
contains is XML-escaped, so it can be inserted into a page as is.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

PALETTE = ("#2456c7", "#c77d24", "#1f7a3f", "#8a3ab9", "#b3261e")


def _fmt(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") if value % 1 else str(int(value))


def bar_chart(
    rows: Sequence[tuple[str, Sequence[float | None]]],
    *,
    series: Sequence[str] = ("F1",),
    title: str = "",
    max_value: float | None = 1.0,
    width: int = 640,
) -> str:
    """Horizontal grouped bars: one group per row label, one bar per series.

    ``rows``: ``[(label, [value per series])]``; ``None`` values draw no bar.
    """
    label_w, right, bar_h, gap, top = 150, 60, 12, 8, 28 if title else 8
    legend_h = 22 if len(series) > 1 else 0
    group_h = bar_h * len(series) + gap
    height = top + legend_h + group_h * max(len(rows), 1) + 8
    values = [v for _, vals in rows for v in vals if v is not None]
    top_value = max_value if max_value is not None else (max(values) if values else 1.0) or 1.0
    plot_w = width - label_w - right
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart bar-chart" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'aria-label="{escape(title or "bar chart", {chr(34): "&quot;"})}">'
    ]
    if title:
        parts.append(
            f'<text x="0" y="16" class="chart-title" font-weight="600">{escape(title)}</text>'
        )
    if len(series) > 1:
        x = label_w
        for i, name in enumerate(series):
            color = PALETTE[i % len(PALETTE)]
            parts.append(
                f'<rect x="{x}" y="{top}" width="10" height="10" fill="{color}"/>'
                f'<text x="{x + 14}" y="{top + 9}" font-size="11">{escape(name)}</text>'
            )
            x += 24 + 7 * len(name)
    y = top + legend_h
    for label, vals in rows:
        parts.append(
            f'<text x="{label_w - 6}" y="{y + group_h / 2}" text-anchor="end" font-size="11" '
            f'dominant-baseline="middle">{escape(label)}</text>'
        )
        for i, value in enumerate(vals):
            by = y + i * bar_h
            if value is None:
                continue
            w = max(0.0, min(1.0, value / top_value)) * plot_w
            color = PALETTE[i % len(PALETTE)]
            name = series[i] if i < len(series) else ""
            parts.append(
                f'<rect x="{label_w}" y="{by}" width="{w:.1f}" height="{bar_h - 2}" fill="{color}" '
                f'data-label="{escape(label)}" data-value="{value:.4f}">'
                f"<title>{escape(label)} {escape(name)}: {_fmt(value)}</title></rect>"
                f'<text x="{label_w + w + 4:.1f}" y="{by + bar_h - 3}" font-size="10">{_fmt(value)}</text>'
            )
        y += group_h
    parts.append(
        f'<line x1="{label_w}" y1="{top + legend_h}" x2="{label_w}" y2="{y}" stroke="#999"/></svg>'
    )
    return "".join(parts)


def line_chart(
    points: Sequence[tuple[str, float]],
    *,
    title: str = "",
    y_label: str = "",
    width: int = 640,
    height: int = 220,
) -> str:
    """A line with dots over categorical x values (e.g. ISO dates), y from 0."""
    left, right, top, bottom = 48, 16, 28 if title else 10, 36
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value = max((v for _, v in points), default=0) or 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart line-chart" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'aria-label="{escape(title or "line chart", {chr(34): "&quot;"})}">'
    ]
    if title:
        parts.append(f'<text x="0" y="16" font-weight="600">{escape(title)}</text>')
    parts.append(
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#999"/>'
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#999"/>'
        f'<text x="{left - 6}" y="{top + 4}" text-anchor="end" font-size="10">{_fmt(top_value)}</text>'
        f'<text x="{left - 6}" y="{top + plot_h}" text-anchor="end" font-size="10">0</text>'
    )
    if y_label:
        parts.append(
            f'<text x="10" y="{top + plot_h / 2}" font-size="10" '
            f'transform="rotate(-90 10 {top + plot_h / 2})" text-anchor="middle">{escape(y_label)}</text>'
        )
    n = len(points)
    coords = []
    for i, (x_label, value) in enumerate(points):
        x = left + (plot_w * (i + 0.5) / n if n else 0)
        y = top + plot_h - plot_h * value / top_value
        coords.append((x, y, x_label, value))
    if coords:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in coords)
        parts.append(
            f'<polyline points="{path}" fill="none" stroke="{PALETTE[0]}" stroke-width="2"/>'
        )
    step = max(1, n // 8)
    for i, (x, y, x_label, value) in enumerate(coords):
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{PALETTE[0]}" data-x="{escape(x_label)}" '
            f'data-value="{value}"><title>{escape(x_label)}: {_fmt(value)}</title></circle>'
        )
        if i % step == 0 or i == n - 1:
            parts.append(
                f'<text x="{x:.1f}" y="{top + plot_h + 14}" text-anchor="middle" font-size="10">'
                f"{escape(x_label)}</text>"
            )
    parts.append("</svg>")
    return "".join(parts)


def series_chart(
    x_labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    *,
    title: str = "",
    markers: Sequence[tuple[int, str]] = (),
    width: int = 640,
    height: int = 240,
) -> str:
    """Several lines over the same categorical x values (e.g. hearings in order), y from
    0, with a legend; ``markers``: ``(x index, note)`` drawn as dashed vertical lines
    (e.g. "retrained") after that x value. ``None`` values break no line: they are skipped."""
    left, right, top, bottom = 44, 16, 30 if title else 10, 40
    legend_h = 18
    plot_w, plot_h = width - left - right, height - top - bottom - legend_h
    values = [v for _, vals in series for v in vals if v is not None]
    top_value = max(values, default=0) or 1
    n = len(x_labels)

    def x_at(i: float) -> float:
        return left + (plot_w * (i + 0.5) / n if n else 0)

    def y_at(v: float) -> float:
        return top + legend_h + plot_h - plot_h * v / top_value

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart series-chart" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'aria-label="{escape(title or "chart", {chr(34): "&quot;"})}">'
    ]
    if title:
        parts.append(f'<text x="0" y="16" font-weight="600">{escape(title)}</text>')
    x = left
    for i, (name, _vals) in enumerate(series):
        color = PALETTE[i % len(PALETTE)]
        parts.append(
            f'<rect x="{x}" y="{top}" width="10" height="10" fill="{color}"/>'
            f'<text x="{x + 14}" y="{top + 9}" font-size="11">{escape(name)}</text>'
        )
        x += 24 + 7 * len(name)
    base = top + legend_h + plot_h
    parts.append(
        f'<line x1="{left}" y1="{top + legend_h}" x2="{left}" y2="{base}" stroke="#999"/>'
        f'<line x1="{left}" y1="{base}" x2="{left + plot_w}" y2="{base}" stroke="#999"/>'
        f'<text x="{left - 6}" y="{top + legend_h + 4}" text-anchor="end" font-size="10">'
        f"{_fmt(top_value)}</text>"
        f'<text x="{left - 6}" y="{base}" text-anchor="end" font-size="10">0</text>'
    )
    for index, note in markers:
        mx = (x_at(index) + x_at(index + 1)) / 2 if index + 1 < n else x_at(index) + 8
        parts.append(
            f'<line x1="{mx:.1f}" y1="{top + legend_h}" x2="{mx:.1f}" y2="{base}" '
            f'stroke="#888" stroke-dasharray="4 3" class="marker"><title>{escape(note)}</title></line>'
        )
    for s, (name, vals) in enumerate(series):
        color = PALETTE[s % len(PALETTE)]
        coords = [(x_at(i), y_at(v), v) for i, v in enumerate(vals) if v is not None]
        if len(coords) > 1:
            path = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy, _ in coords)
            parts.append(
                f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>'
            )
        for (cx, cy, v), label in zip(
            coords,
            [lab for lab, v in zip(x_labels, vals, strict=False) if v is not None],
            strict=False,
        ):
            parts.append(
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3" fill="{color}" data-series="{escape(name)}" '
                f'data-x="{escape(label)}" data-value="{v}"><title>{escape(name)}, {escape(label)}: '
                f"{_fmt(v)}</title></circle>"
            )
    step = max(1, n // 12)
    for i, label in enumerate(x_labels):
        if i % step == 0 or i == n - 1:
            parts.append(
                f'<text x="{x_at(i):.1f}" y="{base + 14}" text-anchor="middle" font-size="10">'
                f"{escape(label)}</text>"
            )
    parts.append("</svg>")
    return "".join(parts)
