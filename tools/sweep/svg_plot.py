"""A line chart as a self-contained SVG, for sweep results: no plotting library needed (none is
installable from Debian's Python on every machine we target, and a chart of a few lines is small).
"""
import html
import math

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]


def line_chart(title, x_label, x_values, series, y_label, width=760, height=420):
    """x_values: category labels; series: [(name, [y or None per x])]. Log-scaled y if the data
    spans more than a factor of 20."""
    ys = [y for _, values in series for y in values if y is not None and y > 0]
    if not ys:
        return "<svg xmlns='http://www.w3.org/2000/svg'/>"
    lo, hi = min(ys), max(ys)
    log = hi / lo > 20
    f = (lambda v: math.log10(v)) if log else (lambda v: v)
    y0, y1 = f(lo) if log else 0.0, f(hi)
    if y1 <= y0:
        y1 = y0 + 1
    left, right, top, bottom = 90, 200, 40, 60
    pw, ph = width - left - right, height - top - bottom
    xs = [left + (pw * i / max(1, len(x_values) - 1) if len(x_values) > 1 else pw / 2)
          for i in range(len(x_values))]
    ypos = lambda v: top + ph - ph * (f(v) - y0) / (y1 - y0)
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
           f"font-family='sans-serif' font-size='12'>",
           f"<rect width='{width}' height='{height}' fill='white'/>",
           f"<text x='{width / 2}' y='22' text-anchor='middle' font-size='15'>{html.escape(title)}</text>",
           f"<line x1='{left}' y1='{top + ph}' x2='{left + pw}' y2='{top + ph}' stroke='black'/>",
           f"<line x1='{left}' y1='{top}' x2='{left}' y2='{top + ph}' stroke='black'/>"]
    for i, label in enumerate(x_values):
        out.append(f"<text x='{xs[i]}' y='{top + ph + 18}' text-anchor='middle'>{html.escape(str(label))}</text>")
    out.append(f"<text x='{left + pw / 2}' y='{height - 15}' text-anchor='middle'>{html.escape(x_label)}</text>")
    for k in range(5):
        v = y0 + (y1 - y0) * k / 4
        real = 10 ** v if log else v
        y = top + ph - ph * k / 4
        out.append(f"<line x1='{left - 4}' y1='{y}' x2='{left + pw}' y2='{y}' stroke='#ddd'/>")
        out.append(f"<text x='{left - 8}' y='{y + 4}' text-anchor='end'>{real:,.0f}</text>")
    out.append(f"<text x='20' y='{top + ph / 2}' transform='rotate(-90 20 {top + ph / 2})' "
               f"text-anchor='middle'>{html.escape(y_label + (' (log)' if log else ''))}</text>")
    for s, (name, values) in enumerate(series):
        color = PALETTE[s % len(PALETTE)]
        pts = [(xs[i], ypos(v)) for i, v in enumerate(values) if v is not None and v > 0]
        if len(pts) > 1:
            out.append(f"<polyline fill='none' stroke='{color}' stroke-width='2' points='"
                       + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + "'/>")
        for x, y in pts:
            out.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='3.5' fill='{color}'/>")
        ly = top + 16 * s
        out.append(f"<rect x='{left + pw + 15}' y='{ly}' width='12' height='3' fill='{color}'/>")
        out.append(f"<text x='{left + pw + 32}' y='{ly + 5}'>{html.escape(name)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
