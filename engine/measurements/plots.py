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
