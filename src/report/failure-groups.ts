/**
 * Identical failures, grouped: what report.html, the console and summary.md list once with a
 * count.
 *
 * Two entries fail "identically" when they have the same error (code and message shape), the
 * same failed step, and the same failed expectations (path, matcher, expected, message shape)
 * and judge errors, whatever the scenario or repeat. The message shape masks what differs from
 * request to request: requestIds (`tpa-...`) and numbers. A dead target's 35 identical
 * "connection refused" entries become one group "×35". Entries never sent (an interrupted run)
 * are not failures and belong to no group.
 */
import type { ScenarioEntry } from './sections/scenarios.js';

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
function failureSignature(s: ScenarioEntry): string {
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
export function groupFailures(report: { scenarios: readonly ScenarioEntry[] }): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const s of report.scenarios) {
    if (s.passed && (s.judgeErrors ?? []).length === 0) continue;
    if (s.outcome === 'not-sent') continue;
    const key = failureSignature(s);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { example: s, entries: [], answers: [] }));
    g.entries.push(s);
    if (s.answerText !== undefined && g.answers.length < 5 && !g.answers.includes(s.answerText))
      g.answers.push(s.answerText);
  }
  return [...groups.values()].sort((a, b) => b.entries.length - a.entries.length);
}
