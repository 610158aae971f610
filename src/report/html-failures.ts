/**
 * The Failures section of report.html: identical failures grouped with a
 * count, the step that failed, the bot's answer beside the failed expectations, the judge's
 * score and reason beside graded failures, and judge errors (no verdict: neither a pass nor a
 * failure).
 * Groups: failure-groups.ts.
 */
import { formatLocation } from '../errors.js';
import { formatValue } from './format-value.js';
import { groupFailures, type FailureGroup } from './failure-groups.js';
import type { ReportDocument } from './sections/index.js';
import type { ScenarioEntry } from './sections/scenarios.js';
import { escapeHtml as h, htmlTable } from './view.js';

const title = (s: ScenarioEntry): string => `${s.suite} › ${s.name} [${s.mode}]`;

function stepText(s: ScenarioEntry): string {
  const step = s.failedStep;
  if (!step) return '';
  const what = step.kind === 'say' || step.kind === 'burst' ? step.kind : `call ${step.kind}`;
  return `<p class="step">Failed at <b>step ${step.index + 1}</b>: ${h(what)} (endpoint <code>${h(step.endpoint)}</code>)</p>`;
}

function answerCell(g: FailureGroup): string {
  if (g.answers.length === 0) return '<span class="muted">no answer text</span>';
  const more =
    g.answers.length > 1
      ? `<p class="muted">${g.answers.length}${g.answers.length === 5 ? '+' : ''} different answers in this group; the first:</p>`
      : '';
  return `${more}<pre class="answer">${h(g.answers[0]!)}</pre>`;
}

function expectationsTable(g: FailureGroup): string {
  const s = g.example;
  if (s.failures.length === 0) return '';
  const graded = s.failures.some((f) => f.score !== undefined || f.reason !== undefined);
  const rows = s.failures.map((f, i) => {
    const judge = graded
      ? `<td class="l">${f.score !== undefined ? `score ${f.score.toFixed(2)}` : ''}${f.reason ? `<br><span class="reason">${h(f.reason)}</span>` : ''}</td>`
      : '';
    const answer = i === 0 ? `<td class="l" rowspan="${s.failures.length}">${answerCell(g)}</td>` : '';
    return `<tr><td class="l"><code>${h(f.path)}</code> ${h(f.matcher)}</td><td><pre>${h(formatValue(f.expected, 2000))}</pre></td><td><pre>${h(formatValue(f.actual, 2000))}</pre></td>${judge}${answer}<td class="l">${h(formatLocation(f.location))}</td></tr>`;
  });
  const head = [
    'expectation',
    'expected',
    'actual',
    ...(graded ? ["judge's score and reason"] : []),
    "bot's answer",
    'at',
  ];
  return `<table class="expectations"><tr>${head.map((c) => `<th>${h(c)}</th>`).join('')}</tr>${rows.join('')}</table>`;
}

function judgeErrorsTable(s: ScenarioEntry): string {
  const errors = s.judgeErrors ?? [];
  if (errors.length === 0) return '';
  const rows = errors.map(
    (j) =>
      `<tr><td class="l"><code>${h(j.path)}</code> ${h(j.matcher)}</td><td class="l">${h(`${j.code}: ${j.message}`)}</td><td class="l">${h(formatLocation(j.location))}</td></tr>`,
  );
  return `<p class="warn">Judge errors: no verdict (neither a pass nor a failure)</p><table class="judge-errors"><tr><th>expectation</th><th>error</th><th>at</th></tr>${rows.join('')}</table>`;
}

/**
 * A link to an entry's trace when the run named a trace view (`--trace-url`, kept in the
 * report's settings) and the entry has a trace id; else its trace id as text (a trace view's
 * search finds it), or nothing.
 */
function traceLink(s: ScenarioEntry, template: string | undefined): string {
  if (s.traceId === undefined) return '';
  if (template === undefined) return ` · <span class="muted">trace ${h(s.traceId)}</span>`;
  const href = template.replaceAll('{traceId}', s.traceId);
  return ` · <a class="trace" href="${h(href)}">trace ${h(s.traceId.slice(0, 8))}…</a>`;
}

function entriesList(g: FailureGroup, template: string | undefined): string {
  if (g.entries.length === 1) return '';
  const items = g.entries.map(
    (s) =>
      `<li>${h(title(s))}${s.repeat !== undefined ? ` repeat ${s.repeat + 1}` : ''}${s.requestId ? ` · ${h(s.requestId)}` : ''}${traceLink(s, template)}</li>`,
  );
  return `<details><summary>${g.entries.length} entries failed this way</summary><ul>${items.join('')}</ul></details>`;
}

function groupHtml(g: FailureGroup, template: string | undefined): string {
  const s = g.example;
  const scenarios = new Set(g.entries.map((e) => `${e.suite} › ${e.name}`));
  const count = g.entries.length > 1 ? `<span class="count">×${g.entries.length}</span> ` : '';
  const others =
    scenarios.size > 1
      ? ` <span class="muted">and ${scenarios.size - 1} other scenario${scenarios.size === 2 ? '' : 's'}</span>`
      : '';
  const kind = s.passed ? 'warn' : 'fail';
  return `<div class="failure" data-count="${g.entries.length}"><h3 class="${kind}">${count}${h(title(s))}${others} <span class="muted">${s.outcome}${s.requestId && g.entries.length === 1 ? ` · ${h(s.requestId)}` : ''}</span>${g.entries.length === 1 ? traceLink(s, template) : ''}</h3>
${stepText(s)}${s.error ? `<pre>${h(`${s.error.code}: ${s.error.message}`)}</pre>` : ''}${expectationsTable(g)}${s.failures.length === 0 && s.answerText !== undefined ? `<p>Bot's answer:</p>${answerCell(g)}` : ''}${judgeErrorsTable(s)}${entriesList(g, template)}</div>`;
}

/** A load keeps no entries: its failing scenario x mode tallies, each with its examples (requestId, error, failed expectations). */
function tallyFailuresHtml(tallies: NonNullable<ReportDocument['tallies']>): string {
  const failing = tallies.filter((t) => t.failed > 0);
  if (failing.length === 0) return `<h2 id="failures">Failures</h2><p class="pass">None.</p>`;
  const rows = failing.map((t) => [
    { text: `${t.suite} › ${t.name} [${t.mode}]`, tone: 'fail' as const },
    `${t.failed} of ${t.requests}`,
    t.examples
      .map(
        (e) =>
          `#${e.seq} ${e.outcome}${e.requestId ? ` ${e.requestId}` : ''}${e.error ? `: ${e.error.code}: ${e.error.message}` : ''}${e.failures.map((f) => `; ${f.path}: ${f.message}`).join('')}`,
      )
      .join(' | '),
  ]);
  const total = failing.reduce((n, t) => n + t.failed, 0);
  return `<h2 id="failures">Failures (${total} requests in ${failing.length} scenario${failing.length === 1 ? '' : 's'})</h2>${htmlTable({ columns: [{ header: 'scenario' }, { header: 'failed' }, { header: 'examples', align: 'l' }], rows })}`;
}

/** The Failures section: one block per group of identical failures, largest first. */
export function failuresHtml(report: ReportDocument): string {
  if (report.scenarios.length === 0 && report.tallies) return tallyFailuresHtml(report.tallies);
  const groups = groupFailures(report);
  const notSent = report.scenarios.filter((s) => s.outcome === 'not-sent').length;
  const skipped =
    notSent > 0
      ? `<p class="muted">${notSent} request${notSent === 1 ? ' was' : 's were'} never sent (interrupted); ${notSent === 1 ? 'it is not a failure' : 'they are not failures'}.</p>`
      : '';
  if (groups.length === 0) return `<h2 id="failures">Failures</h2><p class="pass">None.</p>${skipped}`;
  const failing = groups.reduce((n, g) => n + g.entries.length, 0);
  const heading =
    groups.length === failing
      ? `Failures (${failing})`
      : `Failures (${failing} in ${groups.length} group${groups.length === 1 ? '' : 's'} of identical failures)`;
  const template = typeof report.settings.traceUrl === 'string' ? report.settings.traceUrl : undefined;
  return `<h2 id="failures">${heading}</h2>${skipped}${groups.map((g) => groupHtml(g, template)).join('\n')}`;
}
