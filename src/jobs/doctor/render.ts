/**
 * The doctor's checklist as text (compute, then render): one line per check with its mark, its
 * title and what was seen, and under a warning or a failure the fix. Prints nothing.
 *
 *   droidcheck doctor: https://svc.example (droid 123)
 *     ✓ reachable           TCP connect to svc.example:443 in 31.2 ms; HTTP 200 from GET channels in 64.1 ms
 *     ✗ token accepted      get-droid-answer-async: HTTP 401 Unauthorized: Invalid API key
 *                           fix: the token was refused: check DROID_API_TOKEN (...)
 *   doctor: 1 failed, 0 warnings, 8 passed, 3 not checked · exit 2
 */
import type { CheckStatus, DoctorCheck } from './checks.js';

/** ✓ pass, ! warn, ✗ fail, – skip (not checked). */
const CHECK_MARKS: Readonly<Record<CheckStatus, string>> = { pass: '✓', warn: '!', fail: '✗', skip: '–' };

const TITLE_WIDTH = 19;

/** The lines of one check: `✓ title  detail`, then `fix: ...` under a warning or a failure. */
export function checkLines(c: DoctorCheck, indent = ''): string[] {
  const head = `${indent}${CHECK_MARKS[c.status]} ${c.title.padEnd(TITLE_WIDTH)} ${c.detail}`;
  if (c.fix === undefined || (c.status !== 'fail' && c.status !== 'warn')) return [head];
  return [head, `${indent}  ${' '.repeat(TITLE_WIDTH)} fix: ${c.fix}`];
}

/** `1 failed, 0 warnings, 8 passed, 3 not checked`. */
function checkCounts(checks: readonly DoctorCheck[]): string {
  const n = (s: CheckStatus): number => checks.filter((c) => c.status === s).length;
  const warnings = n('warn');
  return `${n('fail')} failed, ${warnings} warning${warnings === 1 ? '' : 's'}, ${n('pass')} passed, ${n('skip')} not checked`;
}

export interface DoctorRenderInput {
  /** `https://svc.example (droid 123)` or `the embedded emulator at http://127.0.0.1:PORT`. */
  target: string;
  checks: readonly DoctorCheck[];
  exitCode: number;
}

/** The whole checklist, ending with the counts and the exit code. */
export function renderDoctorReport(r: DoctorRenderInput): string {
  const lines = [
    `droidcheck doctor: ${r.target}`,
    ...r.checks.flatMap((c) => checkLines(c, '  ')),
    `doctor: ${checkCounts(r.checks)} · exit ${r.exitCode}`,
  ];
  return `${lines.join('\n')}\n`;
}
