/**
 * The Failures section of report.html (issue 11, item 14): identical failures grouped with a
 * count, the step that failed, the bot's answer beside the failed expectations, the judge's
 * score and reason beside graded failures, and judge errors (no verdict: neither a pass nor a
 * failure, DESIGN.md Measurements).
 *
 * Two entries fail "identically" when they have the same error (code and message shape), the
 * same failed step, and the same failed expectations (path, matcher, expected, message shape)
 * and judge errors, whatever the scenario or repeat. The message shape masks what differs from
 * request to request: requestIds (`tpa-...`) and numbers. A dead target's 35 identical
 * "connection refused" entries become one group "×35".
 */
import { formatLocation } from '../errors.js';
import { formatValue } from './console.js';
import { escapeHtml as h } from './html-sections.js';
import type { ReportDocument, ScenarioEntry } from './report-document.js';

/** Failing entries that failed the same way. */
export interface FailureGroup {
  /** The first entry of the group (report order); its figures are shown. */
  example: ScenarioEntry;
  entries: ScenarioEntry[];
  /** Distinct answer texts of the group's entries (at most 5 kept). */
  answers: string[];
}

/** What differs from request to request in a message, masked. */
export function messageShape(message: string): string {
  return message.replace(/tpa-[A-Za-z0-9_-]+/g, 'tpa-…').replace(/\d+/g, '#');
}

function stable(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return String(value);
  }
}

/** The key under which identical failures are grouped. */
export function failureSignature(s: ScenarioEntry): string {
  return stable({
    outcome: s.outcome,
    error: s.error ? [s.error.code, messageShape(s.error.message)] : null,
    step: s.failedStep ? [s.failedStep.index, s.failedStep.kind, s.failedStep.endpoint] : null,
    failures: s.failures.map((f) => [f.path, f.matcher, stable(f.expected), messageShape(f.message)]),
    judge: (s.judgeErrors ?? []).map((j) => [j.path, j.matcher, j.code, messageShape(j.message)]),
    contract: s.contractViolations.map((v) => [v.endpoint, v.path, messageShape(v.message)]),
  });
}

/** Entries that failed or have judge errors, grouped by {@link failureSignature}; largest group first. */
export function groupFailures(report: ReportDocument): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const s of report.scenarios) {
    if (s.passed && (s.judgeErrors ?? []).length === 0) continue;
    if (s.outcome === 'not-sent') continue;
    const key = failureSignature(s);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { example: s, entries: [], answers: [] }));
    g.entries.push(s);
    if (s.answerText !== undefined && g.answers.length < 5 && !g.answers.includes(s.answerText)) g.answers.push(s.answerText);
  }
  return [...groups.values()].sort((a, b) => b.entries.length - a.entries.length);
}

const title = (s: ScenarioEntry): string => `${s.suite} › ${s.name} [${s.mode}]`;

function stepText(s: ScenarioEntry): string {
  const step = s.failedStep;
  if (!step) return '';
  const what = step.kind === 'say' ? 'say' : `call ${step.kind}`;
  return `<p class="step">Failed at <b>step ${step.index + 1}</b>: ${h(what)} (endpoint <code>${h(step.endpoint)}</code>)</p>`;
}

function answerCell(g: FailureGroup): string {
  if (g.answers.length === 0) return '<span class="muted">no answer text</span>';
  const more = g.answers.length > 1 ? `<p class="muted">${g.answers.length}${g.answers.length === 5 ? '+' : ''} different answers in this group; the first:</p>` : '';
  return `${more}<pre class="answer">${h(g.answers[0]!)}</pre>`;
}

function expectationsTable(g: FailureGroup): string {
  const s = g.example;
  if (s.failures.length === 0) return '';
  const graded = s.failures.some((f) => f.score !== undefined || f.reason !== undefined);
  const rows = s.failures.map((f, i) => {
    const judge = graded ? `<td class="l">${f.score !== undefined ? `score ${f.score.toFixed(2)}` : ''}${f.reason ? `<br><span class="reason">${h(f.reason)}</span>` : ''}</td>` : '';
    const answer = i === 0 ? `<td class="l" rowspan="${s.failures.length}">${answerCell(g)}</td>` : '';
    return `<tr><td class="l"><code>${h(f.path)}</code> ${h(f.matcher)}</td><td><pre>${h(formatValue(f.expected, 2000))}</pre></td><td><pre>${h(formatValue(f.actual, 2000))}</pre></td>${judge}${answer}<td class="l">${h(formatLocation(f.location))}</td></tr>`;
  });
  const head = ['expectation', 'expected', 'actual', ...(graded ? ["judge's score and reason"] : []), "bot's answer", 'at'];
  return `<table class="expectations"><tr>${head.map((c) => `<th>${h(c)}</th>`).join('')}</tr>${rows.join('')}</table>`;
}

function judgeErrorsTable(s: ScenarioEntry): string {
  const errors = s.judgeErrors ?? [];
  if (errors.length === 0) return '';
  const rows = errors.map((j) => `<tr><td class="l"><code>${h(j.path)}</code> ${h(j.matcher)}</td><td class="l">${h(`${j.code}: ${j.message}`)}</td><td class="l">${h(formatLocation(j.location))}</td></tr>`);
  return `<p class="warn">Judge errors: no verdict (neither a pass nor a failure)</p><table class="judge-errors"><tr><th>expectation</th><th>error</th><th>at</th></tr>${rows.join('')}</table>`;
}

function entriesList(g: FailureGroup): string {
  if (g.entries.length === 1) return '';
  const items = g.entries.map((s) => `<li>${h(title(s))}${s.repeat !== undefined ? ` repeat ${s.repeat + 1}` : ''}${s.requestId ? ` · ${h(s.requestId)}` : ''}</li>`);
  return `<details><summary>${g.entries.length} entries failed this way</summary><ul>${items.join('')}</ul></details>`;
}

function groupHtml(g: FailureGroup): string {
  const s = g.example;
  const scenarios = new Set(g.entries.map((e) => `${e.suite} › ${e.name}`));
  const count = g.entries.length > 1 ? `<span class="count">×${g.entries.length}</span> ` : '';
  const others = scenarios.size > 1 ? ` <span class="muted">and ${scenarios.size - 1} other scenario${scenarios.size === 2 ? '' : 's'}</span>` : '';
  const kind = s.passed ? 'warn' : 'fail';
  return `<div class="failure" data-count="${g.entries.length}"><h3 class="${kind}">${count}${h(title(s))}${others} <span class="muted">${s.outcome}${s.requestId && g.entries.length === 1 ? ` · ${h(s.requestId)}` : ''}</span></h3>
${stepText(s)}${s.error ? `<pre>${h(`${s.error.code}: ${s.error.message}`)}</pre>` : ''}${expectationsTable(g)}${s.failures.length === 0 && s.answerText !== undefined ? `<p>Bot's answer:</p>${answerCell(g)}` : ''}${judgeErrorsTable(s)}${entriesList(g)}</div>`;
}

/** The Failures section: one block per group of identical failures, largest first. */
export function failuresHtml(report: ReportDocument): string {
  const groups = groupFailures(report);
  const notSent = report.scenarios.filter((s) => s.outcome === 'not-sent').length;
  const skipped = notSent > 0 ? `<p class="muted">${notSent} request${notSent === 1 ? ' was' : 's were'} never sent (interrupted); they are not failures.</p>` : '';
  if (groups.length === 0) return `<h2 id="failures">Failures</h2><p class="pass">None.</p>${skipped}`;
  const failing = groups.reduce((n, g) => n + g.entries.length, 0);
  const heading = groups.length === failing ? `Failures (${failing})` : `Failures (${failing} in ${groups.length} group${groups.length === 1 ? '' : 's'} of identical failures)`;
  return `<h2 id="failures">${heading}</h2>${skipped}${groups.map(groupHtml).join('\n')}`;
}
