/**
 * The scenarios section's JUnit suites (junit.ts renders them): a `<testsuite>` per scenario
 * suite, a `<testcase>` per scenario x mode (classname = suite, name = `scenario [mode]`, time
 * from the end-to-end latency). A testcase has at most one problem: a `<failure>` holding every
 * failed expectation (expected, actual, file:line:col), an `<error>` for a request that got no
 * answer (timeout, rejected, transport-error, failed payload), or `<skipped>` when interrupted.
 * A repeated scenario carries its pass rate (pass-rates.ts) as properties and in its message.
 *
 * load and capacity keep no per-request entries: one testcase per scenario x mode from the
 * tallies, with its request and pass counts and a failure listing its examples.
 */
import { formatLocation } from '../../errors.js';
import { formatValue } from '../format-value.js';
import type { ExpectationFailure } from '../../scenario/index.js';
import type { ContractViolationRecord, ScenarioTally } from '../run-types.js';
import type { JUnitCase, JUnitSuite } from '../section.js';
import { passRateOf, passRateProperties, passRateSentence, type PassRates } from './pass-rates.js';

/** What a testcase reads of a scenario entry (scenarios.ts ScenarioEntry; declared here, as scenarios.ts imports this module). */
interface ScenarioEntry {
  suite: string;
  name: string;
  file: string;
  mode: string;
  outcome: string;
  passed: boolean;
  requestId?: string | undefined;
  latencyMs?: number | undefined;
  failures: ExpectationFailure[];
  contractViolations: ContractViolationRecord[];
  error?: { code: string; message: string } | undefined;
}

/** Every failed expectation and contract violation of an entry, one block each (a testcase's one failure text). */
function problemLines(s: ScenarioEntry): string[] {
  const lines = s.failures.map((f) =>
    [
      `${f.path} ${f.matcher}: ${f.message}`,
      `  expected: ${formatValue(f.expected, 2000)}`,
      `  actual:   ${formatValue(f.actual, 2000)}`,
      `  at ${formatLocation(f.location)}`,
    ].join('\n'),
  );
  lines.push(...s.contractViolations.map((v) => `contract ${v.endpoint} ${v.path || '(body)'}: ${v.message}`));
  return lines;
}

/** The one problem of an entry (module docs); `note` is its pass rate, when repeated. */
function problemOf(s: ScenarioEntry, note: string): JUnitCase['problem'] {
  if (s.outcome === 'interrupted') return { kind: 'skipped', message: 'run interrupted before this request ended' };
  const where = [...(s.requestId ? [`requestId: ${s.requestId}`] : []), `file: ${s.file}`];
  if (s.outcome !== 'answered') {
    const message = s.error ? `${s.outcome}: ${s.error.message}` : s.outcome;
    const body = [...(s.error ? [`${s.error.code}: ${s.error.message}`] : []), ...problemLines(s), ...where];
    return { kind: 'error', message: message + note, type: s.error?.code ?? s.outcome, text: body.join('\n') };
  }
  if (s.passed) return undefined;
  const problems = problemLines(s);
  const first = s.failures[0];
  const head = first
    ? `${first.path}: ${first.message}`
    : s.contractViolations.length > 0
      ? 'contract violated'
      : 'failed';
  const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : '';
  return {
    kind: 'failure',
    message: `${head}${more}${note}`,
    type: first?.matcher ?? (s.contractViolations.length > 0 ? 'contract' : 'failed'),
    text: [...problems, ...where].join('\n'),
  };
}

/** One testcase per entry; a repeated scenario's pass rate as properties and beside the message (a CI tab shows only the message). */
function entryCase(s: ScenarioEntry, passRates: PassRates | undefined): JUnitCase {
  const rate = passRateOf(passRates, s.suite, s.name, s.mode);
  const repeated = rate !== undefined && rate.runs > 1 ? rate : undefined;
  const problem = problemOf(s, repeated ? ` (${passRateSentence(repeated)})` : '');
  return {
    classname: s.suite,
    name: `${s.name} [${s.mode}]`,
    timeMs: Math.round(s.latencyMs ?? 0),
    file: s.file,
    ...(repeated && { properties: passRateProperties(repeated) }),
    ...(problem && { problem }),
  };
}

function tallyCase(t: ScenarioTally): JUnitCase {
  const lines = t.examples.map(
    (e) =>
      `#${e.seq} ${e.outcome}${e.requestId ? ` ${e.requestId}` : ''}${e.error ? `: ${e.error.code}: ${e.error.message}` : ''}${e.failures.map((f) => `\n  ${f.path}: ${f.message}`).join('')}`,
  );
  return {
    classname: t.suite,
    name: `${t.name} [${t.mode}]`,
    timeMs: 0,
    file: t.file,
    properties: [
      ['requests', String(t.requests)],
      ['passed', String(t.passed)],
    ],
    ...(t.failed > 0 && {
      problem: {
        kind: 'failure',
        message: `${t.failed} of ${t.requests} requests failed`,
        type: 'load',
        text: lines.join('\n'),
      },
    }),
  };
}

/** `list` grouped by suite name, in order of first appearance. */
function bySuite<T extends { suite: string }>(list: readonly T[], toCase: (x: T) => JUnitCase): JUnitSuite[] {
  const suites = new Map<string, JUnitCase[]>();
  for (const x of list) suites.set(x.suite, [...(suites.get(x.suite) ?? []), toCase(x)]);
  return [...suites].map(([name, cases]) => ({ name, cases }));
}

/** The suites of the module docs: of the entries (run), else of the tallies (load, capacity). */
export function scenarioSuites(d: {
  scenarios: ScenarioEntry[];
  tallies?: ScenarioTally[];
  passRates?: PassRates;
}): JUnitSuite[] {
  if (d.scenarios.length > 0) return bySuite(d.scenarios, (s) => entryCase(s, d.passRates));
  return bySuite(d.tallies ?? [], tallyCase);
}
