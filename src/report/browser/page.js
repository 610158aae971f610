// @ts-check
/**
 * report.html's own script, run by the browser that opens the page (no network: uPlot is inlined
 * before it, html-charts.ts). It draws the charts into `#chart-<metric>-pct` /
 * `#chart-<metric>-hist`, the timeline's, the capacity curve's and the bursts' per interval, from
 * the JSON of `#droidcheck-data` (browser/page-data.ts), and filters the scenario table (text,
 * status, mode).
 *
 * A plain script, not a module: html.ts inlines this file as it is in a <script> of the
 * self-contained report.html (page-script.ts reads it beside itself, from src/ or dist/, where the
 * build copies it). Type-checked with the DOM's and uPlot's types (tsconfig.browser.json, part of
 * `npm run typecheck`) and linted like the rest of src/.
 */
(() => {
  /** @typedef {import('./page-data.js').PageData} PageData */
  /** @typedef {import('uplot').Options} ChartOptions */
  /** @typedef {import('uplot').Series} Series */
  /** @typedef {import('uplot').AlignedData} Values */

  /** uPlot, inlined before this script; absent when the page is opened without it. */
  const UPlot = /** @type {typeof import('uplot') | undefined} */ (
    /** @type {{ uPlot?: unknown }} */ (globalThis).uPlot
  );
  const source = document.getElementById('droidcheck-data');
  /** @type {PageData} */
  const data = JSON.parse(source?.textContent ?? '{"charts":[]}');
  // Every chart drawn, for whoever inspects the page (the browser test reads the scales).
  /** @type {import('uplot')[]} */
  const charts = [];
  /** @type {{ droidcheckCharts?: unknown[] }} */ (window).droidcheckCharts = charts;
  /** @type {Record<string, string>} */
  const colors = { ack: '#1f77b4', answer: '#d62728', sync: '#2ca02c', reply: '#9467bd', ackServer: '#17becf' };
  /** @param {HTMLElement} el */
  const width = (el) => Math.max(280, Math.min(560, el.clientWidth || 520));
  // Legends name the series only: uPlot's live values read "--" until the pointer is on the chart.
  const legend = { live: false };
  /**
   * Draws one chart into `el`.
   * @param {ChartOptions['title']} title
   * @param {HTMLElement} el
   * @param {Omit<ChartOptions, 'title' | 'width' | 'height' | 'legend'>} options
   * @param {(number | null)[][]} values
   */
  const draw = (title, el, options, values) => {
    if (!UPlot) return;
    const chart = new UPlot(
      { title, width: width(el), height: 260, legend, ...options },
      /** @type {Values} */ (values),
      el,
    );
    charts.push(chart);
  };
  /** @param {number} v `1/(1-p)` as the percentile it stands for: `p99.9`. */
  const percentileLabel = (v) => `p${+(100 - 100 / v).toFixed(3)}`;

  for (const m of data.charts) {
    const pctEl = document.getElementById(`chart-${m.metric}-pct`);
    const histEl = document.getElementById(`chart-${m.metric}-hist`);
    if (!UPlot || !pctEl) continue;
    /** @type {Series[]} */
    const series = [
      { label: 'percentile', value: (_u, v) => (v == null ? '' : percentileLabel(v)) },
      { label: m.metric, stroke: colors[m.metric], width: 2, points: { show: true, size: 4 } },
    ];
    const values = [m.percentiles.x, m.percentiles.ms.map((v) => Math.max(v, 0.001))];
    if (m.limitOnScale) {
      series.push({ label: m.limitLabel, stroke: '#999', dash: [6, 4], width: 1, points: { show: false } });
      values.push(m.percentiles.x.map(() => m.limitMs));
    }
    const offScale = m.limitOnScale ? '' : ` · ${m.limitLabel}`;
    const top = m.percentiles.p[m.percentiles.p.length - 1];
    draw(
      `${m.metric} latency by percentile, up to p${top} (${m.count} samples; ms, log)${offScale}`,
      pctEl,
      {
        scales: { x: { time: false, distr: 3 }, y: { distr: 3 } },
        axes: [
          {
            splits: () => [1, 10, 100, 1000, 10000, 100000],
            values: (_u, vals) => vals.map((v) => (v >= 1 ? percentileLabel(v) : '')),
          },
          { label: 'ms' },
        ],
        series,
      },
      values,
    );
    const histogram = m.histogram;
    if (!histogram || !histEl) continue;
    draw(
      `${m.metric} latency histogram (% of ${m.count} requests)${offScale}`,
      histEl,
      {
        scales: { x: { time: false, range: (_u, min, max) => [min - histogram.binMs / 2, max + histogram.binMs] } },
        axes: [{ label: 'ms' }, { label: '%' }],
        series: [
          { label: 'from ms' },
          {
            label: '% of requests',
            stroke: colors[m.metric],
            fill: `${colors[m.metric]}66`,
            paths: UPlot.paths.bars?.({ size: [0.9, 60] }),
            points: { show: false },
          },
        ],
      },
      [histogram.ms, histogram.pct],
    );
  }

  const tl = data.timeline;
  const rateEl = document.getElementById('chart-timeline-rate');
  const latEl = document.getElementById('chart-timeline-latency');
  if (tl && rateEl && latEl) {
    // The share of answers right per interval on its own axis, when any interval had a verdict.
    const right = tl.rightPct.some((v) => v !== null);
    draw(
      `throughput (req/s), requests in flight and open conversations${right ? '; answers right (right axis, %)' : ''}`,
      rateEl,
      {
        scales: { x: { time: false }, y: {}, '%': { range: [0, 100] } },
        axes: [
          { label: 's' },
          { label: 'req/s, requests' },
          ...(right ? [{ scale: '%', side: 1, label: '% right', stroke: '#8c564b', grid: { show: false } }] : []),
        ],
        series: [
          { label: 's' },
          { label: 'started req/s', stroke: '#1f77b4', width: 2 },
          { label: 'in flight', stroke: '#ff7f0e', width: 1 },
          { label: 'target req/s', stroke: '#999', dash: [6, 4], width: 1 },
          { label: 'open conversations', stroke: '#2ca02c', width: 1 },
          ...(right ? [{ label: '% answers right', scale: '%', stroke: '#8c564b', width: 2 }] : []),
        ],
      },
      [tl.t, tl.started, tl.inFlight, tl.targetRate, tl.openConversations, ...(right ? [tl.rightPct] : [])],
    );
    draw(
      'latency over time: ack (left axis, ms), answer and sync (right axis, ms)',
      latEl,
      {
        scales: { x: { time: false }, ack: {}, answer: {} },
        axes: [
          { label: 's' },
          { scale: 'ack', label: 'ack ms', stroke: colors.ack },
          { scale: 'answer', side: 1, label: 'answer, sync ms', stroke: colors.answer, grid: { show: false } },
        ],
        series: [
          { label: 's' },
          { label: 'ack p50', scale: 'ack', stroke: colors.ack, width: 1 },
          { label: 'ack p99', scale: 'ack', stroke: colors.ack, width: 2, dash: [4, 2] },
          { label: 'answer p50', scale: 'answer', stroke: colors.answer, width: 1 },
          { label: 'answer p99', scale: 'answer', stroke: colors.answer, width: 2, dash: [4, 2] },
          { label: 'sync p50', scale: 'answer', stroke: colors.sync, width: 1 },
          { label: 'sync p99', scale: 'answer', stroke: colors.sync, width: 2, dash: [4, 2] },
        ],
      },
      [tl.t, tl.ackP50, tl.ackP99, tl.answerP50, tl.answerP99, tl.syncP50, tl.syncP99],
    );
  }

  const cap = data.capacity;
  const capEl = document.getElementById('chart-capacity');
  if (cap && capEl) {
    // A sync mix has no ack: its p99 and limit would be an empty axis and a line about nothing.
    const acks = cap.ackP99.some((v) => v !== null);
    draw(
      `p99 by arrival rate: ${acks ? 'ack (left axis, ms), answer and sync (right axis, ms)' : 'answer and sync (ms)'}`,
      capEl,
      {
        scales: { x: { time: false }, ack: {}, answer: {} },
        axes: [
          { label: 'req/s' },
          ...(acks ? [{ scale: 'ack', label: 'ack ms', stroke: colors.ack }] : []),
          {
            scale: 'answer',
            side: acks ? 1 : 3,
            label: 'answer, sync ms',
            stroke: colors.answer,
            grid: { show: !acks },
          },
        ],
        series: [
          { label: 'req/s' },
          ...(acks
            ? [{ label: 'ack p99', scale: 'ack', stroke: colors.ack, width: 2, points: { show: true, size: 5 } }]
            : []),
          { label: 'answer p99', scale: 'answer', stroke: colors.answer, width: 2, points: { show: true, size: 5 } },
          { label: 'sync p99', scale: 'answer', stroke: colors.sync, width: 2, points: { show: true, size: 5 } },
          ...(acks
            ? [
                {
                  label: `ack limit ${cap.limitMs} ms`,
                  scale: 'ack',
                  stroke: '#999',
                  dash: [6, 4],
                  width: 1,
                  points: { show: false },
                },
              ]
            : []),
        ],
      },
      [
        cap.rate,
        ...(acks ? [cap.ackP99] : []),
        cap.answerP99,
        cap.syncP99,
        ...(acks ? [cap.rate.map(() => cap.limitMs)] : []),
      ],
    );
  }

  // The knee: the share of answers right (left axis, %) and the answer latency (right axis, ms) by rate.
  const qualEl = document.getElementById('chart-capacity-quality');
  if (cap && qualEl) {
    /** @type {Series[]} */
    const series = [
      { label: 'req/s' },
      { label: '% right', scale: '%', stroke: '#2ca02c', width: 2, points: { show: true, size: 5 } },
      { label: '95% CI low', scale: '%', stroke: '#2ca02c', dash: [2, 3], width: 1, points: { show: false } },
      { label: '95% CI high', scale: '%', stroke: '#2ca02c', dash: [2, 3], width: 1, points: { show: false } },
      { label: cap.latencyLabel, scale: 'ms', stroke: colors.answer, width: 2, points: { show: true, size: 5 } },
    ];
    const values = [cap.rate, cap.rightPct, cap.rightLowPct, cap.rightHighPct, cap.latencyP99];
    if (cap.minPct > 0) {
      series.push({
        label: `min ${cap.minPct}% right`,
        scale: '%',
        stroke: '#999',
        dash: [6, 4],
        width: 1,
        points: { show: false },
      });
      values.push(cap.rate.map(() => cap.minPct));
    }
    draw(
      'answers right (left axis, %) and latency (right axis, ms) by arrival rate',
      qualEl,
      {
        // ms from 0: a latency that holds while the answers fall reads as flat, not as noise magnified.
        scales: {
          x: { time: false },
          '%': { range: [0, 100] },
          ms: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
        },
        axes: [
          { label: 'req/s' },
          { scale: '%', label: '% right', stroke: '#2ca02c' },
          { scale: 'ms', side: 1, label: 'ms', stroke: colors.answer, grid: { show: false } },
        ],
        series,
      },
      values,
    );
  }

  // A load's bursts: each finding's share per interval (left axis, %), the bursts judged behind it
  // (right axis, whole numbers). The findings often go together (a late first answer is out of
  // order, stale and regresses the cart): a solid, a dashed and a dotted line stay apart on top
  // of one another.
  const bursts = data.bursts;
  const burstsEl = document.getElementById('chart-bursts-timeline');
  if (bursts && burstsEl) {
    draw(
      'burst findings per interval (%)',
      burstsEl,
      {
        scales: {
          x: { time: false },
          '%': { range: [0, 100] },
          n: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [
          { label: 's' },
          { scale: '%', label: '% of bursts' },
          {
            scale: 'n',
            side: 1,
            label: 'bursts judged',
            grid: { show: false },
            incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000],
          },
        ],
        series: [
          { label: 's' },
          { label: '% out of order', scale: '%', stroke: '#d62728', width: 4, points: { show: true, size: 6 } },
          {
            label: '% stale last answer',
            scale: '%',
            stroke: '#ff7f0e',
            width: 2,
            dash: [8, 6],
            points: { show: true, size: 4 },
          },
          {
            label: '% cart regressed',
            scale: '%',
            stroke: '#9467bd',
            width: 2,
            dash: [2, 4],
            points: { show: true, size: 3 },
          },
          { label: 'bursts judged', scale: 'n', stroke: '#999', dash: [4, 3], width: 1, points: { show: false } },
        ],
      },
      [bursts.t, bursts.outOfOrderPct, bursts.staleLastPct, bursts.cartRegressedPct, bursts.judged],
    );
  }

  const q = /** @type {HTMLInputElement | null} */ (document.getElementById('filter-text'));
  const status = /** @type {HTMLSelectElement | null} */ (document.getElementById('filter-status'));
  const mode = /** @type {HTMLSelectElement | null} */ (document.getElementById('filter-mode'));
  const count = document.getElementById('filter-count');
  if (q && status && mode && count) {
    const apply = () => {
      const text = (q.value || '').toLowerCase();
      let shown = 0;
      const groups = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('tbody.sc'));
      for (const g of groups) {
        const ok =
          (!text || (g.dataset.name ?? '').includes(text)) &&
          (status.value === 'all' || g.dataset.status === status.value) &&
          (mode.value === 'all' || g.dataset.mode === mode.value);
        g.hidden = !ok;
        if (ok) shown++;
      }
      count.textContent = `${shown} of ${groups.length}`;
    };
    for (const el of [q, status, mode]) el.addEventListener('input', apply);
    apply();
  }
})();
