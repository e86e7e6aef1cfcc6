// The perf dashboard (tools/perf/dashboard.py writes data.js and runs/ID.js next to this file).
// Works from file://: data arrive as scripts calling PERF_DATA_LOADED and PERF_RUN_LOADED.
"use strict";

const dashboard = {data: null, selected: 0, charts: {}, runs: {}, waiting: {}};
window.dashboard = dashboard;

const METRICS = [
  {id: "cycles", label: "cycles", value: p => p.cycles},
  {id: "dram", label: "DRAM bytes", value: p => p.dram},
  {id: "util", label: "MAC utilisation", value: p => p.util},
  {id: "wall", label: "wall time (s, compile + simulate)", value: p => p.wall},
];

const fmt = v => v === null || v === undefined ? "-" :
  Number.isInteger(v) ? v.toLocaleString("en-US") : Number(v).toFixed(3);

function pct(a, b) {
  if (a === null || a === undefined || b === null || b === undefined || a === 0) return null;
  return 100 * (b - a) / a;
}

function cell(tr, text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

function deltaCell(tr, a, b) {
  const d = pct(a, b);
  cell(tr, d === null ? "-" : `${d >= 0 ? "+" : ""}${d.toFixed(2)}%`,
       d > 0 ? "worse" : d < 0 ? "better" : "");
}

function seriesName(s) {
  return [s.model, s.config, s.variant].filter(x => x).join(" / ");
}

function renderSummary() {
  const body = document.querySelector("#summary tbody");
  body.textContent = "";
  dashboard.data.series.forEach((s, i) => {
    const last = s.points[s.points.length - 1];
    const prev = s.points.length > 1 ? s.points[s.points.length - 2] : null;
    const tr = document.createElement("tr");
    if (last.regression) tr.classList.add("regression");
    if (i === dashboard.selected) tr.classList.add("selected");
    [s.model, s.config, s.variant, s.points.length, fmt(last.cycles)].forEach(v => cell(tr, v));
    deltaCell(tr, prev ? prev.cycles : null, last.cycles);
    [fmt(last.dram), fmt(last.util), last.status].forEach(v => cell(tr, v));
    tr.addEventListener("click", () => selectSeries(i));
    body.appendChild(tr);
  });
}

function commitLabel(index) {
  return dashboard.data.commits[index].sha.slice(0, 8);
}

function makeChart(metric, series) {
  const canvas = document.getElementById(`chart-${metric.id}`);
  const points = series.points;
  return new Chart(canvas, {
    type: "line",
    data: {
      labels: points.map(p => commitLabel(p.commit)),
      datasets: [{
        label: metric.label,
        data: points.map(metric.value),
        borderColor: "#2e5eaa",
        pointBackgroundColor: points.map(p => p.regression ? "#c0392b" : "#2e5eaa"),
        pointRadius: points.map(p => p.regression ? 6 : 4),
        pointHoverRadius: 8,
        tension: 0,
      }],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      plugins: {
        title: {display: true, text: metric.label},
        legend: {display: false},
        tooltip: {callbacks: {
          title: items => {
            const c = dashboard.data.commits[points[items[0].dataIndex].commit];
            return `${c.sha.slice(0, 12)} ${c.subject}`;
          },
          label: item => `${metric.label}: ${fmt(item.raw)}` +
            (points[item.dataIndex].regression ? " (cycles up)" : ""),
        }},
      },
      onClick: (event, elements) => {
        if (elements.length) showRun(points[elements[0].index]);
      },
    },
  });
}

function selectSeries(index) {
  dashboard.selected = index;
  const s = dashboard.data.series[index];
  document.getElementById("series-title").textContent = seriesName(s);
  for (const chart of Object.values(dashboard.charts)) chart.destroy();
  dashboard.charts = {};
  for (const m of METRICS) dashboard.charts[m.id] = makeChart(m, s);
  renderSummary();
  document.getElementById("run").hidden = true;
}

// Run data come as scripts (file:// forbids fetch); each loads once.
function loadRun(id) {
  if (id === null || id === undefined) return Promise.resolve(null);
  if (dashboard.runs[id]) return Promise.resolve(dashboard.runs[id]);
  return new Promise((resolve, reject) => {
    (dashboard.waiting[id] = dashboard.waiting[id] || []).push(resolve);
    const script = document.createElement("script");
    script.src = `runs/${id}.js`;
    script.onerror = () => reject(new Error(`runs/${id}.js did not load`));
    document.head.appendChild(script);
  });
}

window.PERF_RUN_LOADED = run => {
  dashboard.runs[run.id] = run;
  for (const resolve of dashboard.waiting[run.id] || []) resolve(run);
  delete dashboard.waiting[run.id];
};

function renderRun(run, previous) {
  document.getElementById("run-title").textContent =
    `${seriesName(run)} at ${run.sha.slice(0, 12)}: ${run.subject}`;
  const meta = [`status ${run.status}`, `${fmt(run.cycles)} cycles`,
                `predicted ${fmt(run.predicted_cycles)}`, `MAC util. ${fmt(run.mac_utilisation)}`,
                `roofline ratio ${fmt(run.roofline_ratio)}`];
  if (run.accuracy_snr_db !== null) meta.push(`SNR ${fmt(run.accuracy_snr_db)} dB`);
  meta.push(previous ? `diff against ${previous.sha.slice(0, 12)}` : "first recorded run");
  if (run.command_line) meta.push(run.command_line);
  document.getElementById("run-meta").textContent = meta.join(" · ");
  const before = new Map((previous ? previous.layers : []).map(l => [l.name, l]));
  const body = document.querySelector("#layers tbody");
  body.textContent = "";
  for (const l of run.layers) {
    const p = before.get(l.name);
    const tr = document.createElement("tr");
    [l.name, l.op, l.engine, fmt(l.cycles), p ? fmt(p.cycles) : "-"].forEach(v => cell(tr, v));
    deltaCell(tr, p ? p.cycles : null, l.cycles);
    [fmt(l.predicted_cycles), fmt(l.mac_utilisation), fmt(l.dram_read_bytes),
     fmt(l.dram_write_bytes)].forEach(v => cell(tr, v));
    body.appendChild(tr);
  }
  document.getElementById("run").hidden = false;
}

function showRun(point) {
  return Promise.all([loadRun(point.run), loadRun(point.previous_run)])
    .then(([run, previous]) => renderRun(run, previous));
}
dashboard.showRun = showRun;
dashboard.selectSeries = selectSeries;

function pointLabel(p) {
  return Object.entries(p.fields).map(([k, v]) => `${k.split(".").pop()}=${v}`).join(" ");
}

function renderSweep(sweep) {
  document.getElementById("sweep-title").textContent =
    `Latest sweep: ${sweep.name} (${sweep.points.length} points, ${sweep.created_at})`;
  const ok = sweep.points.filter(p => p.cycles !== null);
  const models = [...new Set(ok.map(p => p.model))];
  const labels = [...new Set(ok.map(pointLabel))];
  dashboard.sweepChart = new Chart(document.getElementById("chart-sweep"), {
    type: "bar",
    data: {labels, datasets: models.map((m, i) => ({
      label: m,
      data: labels.map(l => { const p = ok.find(q => q.model === m && pointLabel(q) === l);
                              return p ? p.cycles : null; }),
      backgroundColor: ["#2e5eaa", "#e67e22", "#27ae60", "#8e44ad", "#c0392b"][i % 5],
    }))},
    options: {animation: false, maintainAspectRatio: false,
              plugins: {title: {display: true, text: "cycles per point"}}},
  });
  const body = document.querySelector("#sweep-points tbody");
  for (const p of sweep.points) {
    const tr = document.createElement("tr");
    [pointLabel(p), p.model, p.error ? `${p.status}: ${p.error}` : p.status, fmt(p.cycles),
     fmt(p.latency_us), fmt(p.energy_pj), fmt(p.area_mm2), fmt(p.mac_utilisation)]
      .forEach(v => cell(tr, v));
    body.appendChild(tr);
  }
  document.getElementById("sweep").hidden = false;
}

window.PERF_DATA_LOADED = data => {
  dashboard.data = data;
  document.getElementById("generated").textContent =
    `${data.commits.length} commits, ${data.series.length} series; generated ${data.generated}`;
  if (data.series.length) selectSeries(0);
  if (data.sweep) renderSweep(data.sweep);
};
