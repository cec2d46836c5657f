"""The picture on an agent's page: corrections per week (bars) and, where the ledger measures it,
the repeated-mistake rate (a line), drawn as inline SVG on the server — no script, no library."""

from __future__ import annotations

import html
from typing import Any

W, H, PAD = 640, 180, 28


def repeat_series(summary: dict) -> tuple[list[tuple[str, float]], float | None]:
    """The repeated-mistake rate as ``status --json`` gives it (``repeated_mistakes``): per week
    and overall, the share of the situations a rule was about where the mistake came back *after*
    the rule existed. Nothing is derived here; a summary without it gives ([], None)."""
    value: Any = summary.get("repeated_mistakes")
    if not isinstance(value, dict) or not value.get("rules_checked"):
        return [], None
    after = value.get("after") or {}
    overall = after.get("rate")
    series = [(str(w["week"]), float(w["after"]["rate"])) for w in value.get("weeks") or []
              if isinstance(w, dict) and isinstance((w.get("after") or {}).get("rate"), int | float)]
    return series, float(overall) if isinstance(overall, int | float) else None


def weekly(weeks: list[dict], repeat: tuple[list[tuple[str, float]], float | None]) -> str:
    """Bars of corrections per week (the last 12 weeks with turns), with turns recorded under each."""
    series, overall = repeat
    caption = ""
    if overall is not None:
        caption = f"<p>Repeated-mistake rate: <b>{overall:.0%}</b> of corrected mistakes came back.</p>"
    if not weeks:
        return f'<section class="chart">{caption}<p class="muted">No turn recorded yet: no weekly picture.</p></section>'
    weeks = weeks[-12:]
    top = max(max(w["corrections"] for w in weeks), 1)
    step = (W - 2 * PAD) / len(weeks)
    bars = []
    for i, w in enumerate(weeks):
        h = (H - 2 * PAD) * w["corrections"] / top
        x = PAD + i * step + step * 0.15
        y = H - PAD - h
        label = html.escape(w["week"])
        bars.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{step * 0.7:.1f}" height="{h:.1f}" class="bar">'
                    f'<title>{label}: {w["corrections"]} correction(s) in {w["turns"]} turn(s)</title></rect>'
                    f'<text x="{x + step * 0.35:.1f}" y="{y - 4:.1f}" class="n">{w["corrections"]}</text>'
                    f'<text x="{x + step * 0.35:.1f}" y="{H - PAD + 14:.1f}" class="wk">{label[-3:]}</text>')
    line = _line(series, [w["week"] for w in weeks], step)
    legend = ("corrections per week (bars; the number of turns in each tooltip)" +
              ("; repeated-mistake rate (line, 0–100%)" if line else ""))
    first, last = weeks[0], weeks[-1]
    trend = (f"{last['corrections']} correction(s) in {last['turns']} turn(s) in {html.escape(last['week'])}, "
             f"against {first['corrections']} in {first['turns']} in {html.escape(first['week'])}."
             if len(weeks) > 1 else f"{last['corrections']} correction(s) in {last['turns']} turn(s) this week.")
    return (f'<section class="chart"><h2>Corrections per week</h2><p>{trend}</p>{caption}'
            f'<svg viewBox="0 0 {W} {H}" role="img" aria-label="{legend}">{"".join(bars)}{line}</svg>'
            f'<p class="muted">{legend}</p></section>')


def _line(series: list[tuple[str, float]], weeks: list[str], step: float) -> str:
    at = dict(series)
    points = [(PAD + i * step + step / 2, H - PAD - (H - 2 * PAD) * min(max(at[w], 0.0), 1.0))
              for i, w in enumerate(weeks) if w in at]
    if not points:
        return ""
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" class="rate"/>' for x, y in points)
    return f'<polyline points="{path}" class="rate"/>{dots}'
