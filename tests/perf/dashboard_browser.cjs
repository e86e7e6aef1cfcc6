// Drives Debian's chromium (playwright-core, no browser download) through the perf dashboard:
//   node dashboard_browser.cjs SITE/index.html CHROMIUM EXPECT_JSON
// EXPECT: series (model names in table order), points per chart, layers per series,
// regression_series / regression_point (the one red point), sweep_points / sweep_bars (the latest
// sweep's table rows and chart bars). Exits 1 naming the first failure.
"use strict";
const {chromium} = require("playwright-core");
const {pathToFileURL} = require("url");

const [page_path, executable, expect_json] = process.argv.slice(2);
const expect = JSON.parse(expect_json);
const RED = "#c0392b";

function check(condition, what) {
  if (!condition) throw new Error(what);
  console.log(`ok: ${what}`);
}

async function chartState(page) {
  return page.evaluate(() => Object.fromEntries(Object.entries(window.dashboard.charts).map(
    ([id, c]) => [id, {points: c.data.datasets[0].data.length,
                       colours: c.data.datasets[0].pointBackgroundColor}])));
}

// Clicks point `index` of the cycles chart where the browser drew it.
async function clickPoint(page, index) {
  const at = await page.evaluate(i => {
    const chart = window.dashboard.charts.cycles;
    const box = chart.canvas.getBoundingClientRect();
    const p = chart.getDatasetMeta(0).data[i];
    return {x: box.left + p.x, y: box.top + p.y};
  }, index);
  await page.mouse.click(at.x, at.y);
}

async function main() {
  const browser = await chromium.launch({executablePath: executable, args: ["--no-sandbox"]});
  const errors = [];
  try {
    const page = await browser.newPage();
    page.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
    page.on("pageerror", e => errors.push(String(e)));
    await page.goto(pathToFileURL(page_path).href);
    await page.waitForFunction(() => window.dashboard && window.dashboard.data);

    const rows = await page.$$eval("#summary tbody tr", trs => trs.map(
      tr => ({model: tr.cells[0].textContent, regression: tr.classList.contains("regression")})));
    check(JSON.stringify(rows.map(r => r.model)) === JSON.stringify(expect.series),
          `summary lists the series ${expect.series.join(", ")}`);
    check(rows.filter(r => r.regression).length === 1 && rows[expect.regression_series].regression,
          "the summary marks the regressed series only");

    for (const [s, model] of expect.series.entries()) {
      await page.click(`#summary tbody tr:nth-child(${s + 1})`);
      const charts = await chartState(page);
      check(Object.keys(charts).length === 4, `${model}: four charts`);
      for (const [id, c] of Object.entries(charts)) {
        check(c.points === expect.points, `${model}: chart ${id} has ${expect.points} points`);
      }
      const red = charts.cycles.colours.map((c, i) => c === RED ? i : -1).filter(i => i >= 0);
      const want = s === expect.regression_series ? [expect.regression_point] : [];
      check(JSON.stringify(red) === JSON.stringify(want), `${model}: red points at [${want}]`);

      await clickPoint(page, expect.points - 1);
      await page.waitForSelector("#run:not([hidden])");
      const table = await page.$$eval("#layers tbody tr", trs => trs.map(
        tr => Array.from(tr.cells, td => td.textContent)));
      check(table.length === expect.layers[s], `${model}: the layer table has ${expect.layers[s]} rows`);
      const title = await page.textContent("#run-title");
      check(title.includes(model) && title.includes("commit number 2"),
            `${model}: the run shown is the clicked one (${title})`);
      const deltas = table.map(r => r[5]);
      if (s === expect.regression_series) {
        check(deltas[0].startsWith("+") && deltas.slice(1).every(d => d === "+0.00%"),
              `${model}: the diff shows the regressed layer only (${deltas[0]})`);
      } else {
        check(deltas.every(d => d === "+0.00%"), `${model}: the diff shows no change`);
      }
    }
    const sweep = await page.evaluate(() => ({
      bars: window.dashboard.sweepChart.data.labels.length,
      rows: document.querySelectorAll("#sweep-points tbody tr").length,
      hidden: document.getElementById("sweep").hidden}));
    check(!sweep.hidden && sweep.rows === expect.sweep_points,
          `the latest sweep lists its ${expect.sweep_points} points`);
    check(sweep.bars === expect.sweep_bars, `the sweep chart has ${expect.sweep_bars} bars`);
    check(errors.length === 0, `no console errors (${errors.join("; ")})`);
  } finally {
    await browser.close();
  }
}

main().catch(e => {
  console.error(`FAIL: ${e.message}`);
  process.exit(1);
});
