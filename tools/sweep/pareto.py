"""Pareto fronts of a sweep (matplotlib, Debian's python3-matplotlib): for each pair of costs to
minimise (latency vs area, energy vs area, latency vs energy), every point in grey and the
non-dominated ones joined and labelled with their configs. One SVG per pair with data."""
import os

from errors import PerfError

PAIRS = [("area_mm2", "latency_us"), ("area_mm2", "energy_pj"), ("energy_pj", "latency_us")]
LABELS = {"area_mm2": "area (mm²)", "latency_us": "latency (µs)", "energy_pj": "energy (pJ)"}


def front(points):
    """The points no other point beats in both coordinates (lower is better), sorted by x."""
    best = []
    for p in sorted(points, key=lambda p: (p[0], p[1])):
        if not best or p[1] < best[-1][1]:
            best.append(p)
    return best


def charts(rows, label_of, prefix, title):
    """Writes PREFIX-<y>-vs-<x>.svg for each pair the rows have data for; returns the paths."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PerfError("Pareto charts need matplotlib (Debian: apt-get install "
                        "python3-matplotlib; tools/npu sweep installs it)") from None
    written = []
    for x, y in PAIRS:
        pts = [(r[x], r[y], label_of(r)) for r in rows
               if r.get(x) is not None and r.get(y) is not None and not r.get("excluded")]
        if len(pts) < 1:
            continue
        best = front(pts)
        fig, ax = plt.subplots(figsize=(8, 5.5))
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], color="#bbbbbb", s=18,
                   label="dominated")
        ax.plot([p[0] for p in best], [p[1] for p in best], "o-", color="#2e5eaa", ms=6,
                label="Pareto front")
        for px, py, text in best:
            ax.annotate(text, (px, py), textcoords="offset points", xytext=(6, 4), fontsize=7)
        ax.set_xlabel(LABELS[x])
        ax.set_ylabel(LABELS[y])
        ax.set_title(f"{title}: {LABELS[y]} vs {LABELS[x]}")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best", fontsize=8)
        path = f"{prefix}-{y.split('_')[0]}-vs-{x.split('_')[0]}.svg"
        tmp = path + ".tmp"
        fig.savefig(tmp, format="svg", bbox_inches="tight")
        plt.close(fig)
        os.replace(tmp, path)
        written.append(path)
    return written
