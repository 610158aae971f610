/**
 * JUnit XML of a ReportDocument (`junit.xml`), for CI test tabs: a `<testsuite>` per scenario
 * suite, a `<testcase>` per scenario x mode (classname = suite, name = `scenario [mode]`,
 * time in seconds from the end-to-end latency; a suite's time is the sum of its testcases', the
 * total the sum of the suites'). A testcase has at most one problem: a `<failure>` holding every
 * failed expectation (expected, actual, file:line:col), an `<error>` for a request that got no
 * answer (timeout, rejected, transport-error, failed payload), or `<skipped>` when interrupted.
 * Thresholds form one more suite, `droidcheck.thresholds`. Settings become `<properties>`
 * (secret-looking keys left out).
 */
import { writeFile } from 'node:fs/promises';
import { makeDir } from './make-dir.js';
import { join } from 'node:path';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { formatLocation } from '../errors.js';
import { describeThreshold, thresholdVerdictText } from '../metrics/index.js';
import { formatValue } from './format-value.js';
import type { ReportDocument } from './sections/index.js';
import { passRateOf, passRateProperties, passRateSentence, type ScenarioPassRate } from './sections/pass-rates.js';
import { redteamTestcases, type RedteamReportSection } from './sections/redteam.js';
import type { ScenarioEntry } from './sections/scenarios.js';

export const JUNIT_REPORT_FILE = 'junit.xml';
const THRESHOLD_SUITE = 'droidcheck.thresholds';
const REDTEAM_SUITE = 'droidcheck.redteam';

export interface JUnitOptions {
  /** Add the `droidcheck.thresholds` suite (default true). */
  thresholds?: boolean;
}

const SECRET_KEY = /token|secret|password|authorization|api[-_]?key/i;
// Characters XML 1.0 cannot hold (C0 controls but tab, LF, CR; lone surrogates; U+FFFE/F).
const INVALID_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text safe for XML 1.0: invalid characters replaced by U+FFFD. */
export function xmlSafe(text: string): string {
  return text.replace(INVALID_XML, '\uFFFD');
}

const attr = (text: string): string => xmlSafe(text.replace(/\s*\n\s*/g, ' '));
const seconds = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(3);

/** Settings flattened to `a.b` = value strings, leaving out secret-looking keys. */
export function settingsProperties(settings: Record<string, unknown>, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(settings)) {
    if (SECRET_KEY.test(key)) continue;
    const name = `${prefix}${key}`;
    if (value && typeof value === 'object' && !Array.isArray(value))
      out.push(...settingsProperties(value as Record<string, unknown>, `${name}.`));
    else out.push([name, typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))]);
  }
  return out;
}

/** A testcase's time in whole ms (the JUnit time is seconds with 3 decimals: sums of these add up exactly). */
const caseMs = (s: ScenarioEntry): number => Math.round(s.latencyMs ?? 0);

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

/**
 * One testcase: `<skipped>` (interrupted), one `<error>` (no answer: the outcome and the error,
 * then any failed expectation) or one `<failure>` (answered, failed: every failed expectation and
 * contract violation in its text, the first in its message). CI tools count one problem per
 * testcase, so a scenario with three failed expectations is one failed test, not three.
 */
function addTestcase(suite: XMLBuilder, s: ScenarioEntry, rate?: ScenarioPassRate): void {
  const tc = suite.ele('testcase', {
    classname: attr(s.suite),
    name: attr(`${s.name} [${s.mode}]`),
    time: seconds(caseMs(s)),
    file: attr(s.file),
  });
  // Repeated scenarios: their pass rate as properties and beside the failure message (a CI test
  // tab shows only the failure text, so a flaky scenario must say its rate there).
  const repeated = rate !== undefined && rate.runs > 1 ? rate : undefined;
  if (repeated) {
    const props = tc.ele('properties');
    for (const [name, value] of passRateProperties(repeated)) props.ele('property', { name, value: attr(value) });
  }
  const note = repeated ? ` (${passRateSentence(repeated)})` : '';
  if (s.outcome === 'interrupted') {
    tc.ele('skipped', { message: 'run interrupted before this request ended' });
    return;
  }
  const where = [...(s.requestId ? [`requestId: ${s.requestId}`] : []), `file: ${s.file}`];
  if (s.outcome !== 'answered') {
    const message = s.error ? `${s.outcome}: ${s.error.message}` : s.outcome;
    const body = [...(s.error ? [`${s.error.code}: ${s.error.message}`] : []), ...problemLines(s), ...where];
    tc.ele('error', { message: attr(message + note), type: attr(s.error?.code ?? s.outcome) }).txt(
      xmlSafe(body.join('\n')),
    );
    return;
  }
  if (s.passed) return;
  const problems = problemLines(s);
  const first = s.failures[0];
  const head = first
    ? `${first.path}: ${first.message}`
    : s.contractViolations.length > 0
      ? 'contract violated'
      : 'failed';
  const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : '';
  tc.ele('failure', {
    message: attr(`${head}${more}${note}`),
    type: attr(first?.matcher ?? (s.contractViolations.length > 0 ? 'contract' : 'failed')),
  }).txt(xmlSafe([...problems, ...where].join('\n')));
}

/** Adds a `<testsuite>` (with the run's properties) and returns it. */
type OpenSuite = (
  name: string,
  list: { length: number },
  failures: number,
  errors: number,
  skipped: number,
  timeMs: number,
) => XMLBuilder;

/** `droidcheck redteam`: one testcase per attack category (classname droidcheck.redteam), a failure with its findings' conversations. */
function addRedteamSuite(r: RedteamReportSection, openSuite: OpenSuite): void {
  const cases = redteamTestcases(r);
  const suite = openSuite(
    REDTEAM_SUITE,
    cases,
    cases.filter((c) => c.failure).length,
    0,
    cases.filter((c) => c.skipped !== undefined).length,
    0,
  );
  for (const c of cases) {
    const tc = suite.ele('testcase', { classname: REDTEAM_SUITE, name: attr(c.name), time: '0.000' });
    if (c.skipped !== undefined) tc.ele('skipped', { message: attr(c.skipped) });
    if (c.failure)
      tc.ele('failure', { message: attr(c.failure.message), type: 'redteam' }).txt(xmlSafe(c.failure.body));
  }
}

type TallyEntry = NonNullable<ReportDocument['tallies']>[number];

/** Entries of `list` with a problem of `kind` (a testcase has at most one). */
function countOf(list: ScenarioEntry[], kind: 'failure' | 'error' | 'skipped'): number {
  return list.filter((s) =>
    kind === 'skipped'
      ? s.outcome === 'interrupted'
      : kind === 'error'
        ? s.outcome !== 'answered' && s.outcome !== 'interrupted'
        : s.outcome === 'answered' && !s.passed,
  ).length;
}

/** The suite opener over `root`: every suite carries the run's timestamp and settings properties. */
function suiteOpener(root: XMLBuilder, startedAt: string, properties: [string, string][]): OpenSuite {
  return (name, list, failures, errors, skipped, timeMs) => {
    const suite = root.ele('testsuite', {
      name: attr(name),
      tests: String(list.length),
      failures: String(failures),
      errors: String(errors),
      skipped: String(skipped),
      time: seconds(timeMs),
      timestamp: startedAt,
    });
    if (properties.length > 0) {
      const props = suite.ele('properties');
      for (const [key, value] of properties) props.ele('property', { name: attr(key), value: attr(value) });
    }
    return suite;
  };
}

/** One load/capacity testcase from a tally: its request and pass counts, a failure listing its examples. */
function addTallyTestcase(suite: XMLBuilder, t: TallyEntry): void {
  const tc = suite.ele('testcase', {
    classname: attr(t.suite),
    name: attr(`${t.name} [${t.mode}]`),
    time: '0.000',
    file: attr(t.file),
  });
  tc.ele('properties')
    .ele('property', { name: 'requests', value: String(t.requests) })
    .up()
    .ele('property', { name: 'passed', value: String(t.passed) });
  if (t.failed === 0) return;
  const lines = t.examples.map(
    (e) =>
      `#${e.seq} ${e.outcome}${e.requestId ? ` ${e.requestId}` : ''}${e.error ? `: ${e.error.code}: ${e.error.message}` : ''}${e.failures.map((f) => `\n  ${f.path}: ${f.message}`).join('')}`,
  );
  tc.ele('failure', { message: attr(`${t.failed} of ${t.requests} requests failed`), type: 'load' }).txt(
    xmlSafe(lines.join('\n')),
  );
}

/** load and capacity keep no per-request entries: one testcase per scenario x mode from the tallies. */
function addTallySuites(tallies: TallyEntry[], openSuite: OpenSuite): void {
  const talliesBySuite = new Map<string, TallyEntry[]>();
  for (const t of tallies) talliesBySuite.set(t.suite, [...(talliesBySuite.get(t.suite) ?? []), t]);
  for (const [name, list] of talliesBySuite) {
    const suite = openSuite(name, list, list.filter((t) => t.failed > 0).length, 0, 0, 0);
    for (const t of list) addTallyTestcase(suite, t);
  }
}

/** The `droidcheck.thresholds` suite: a failure per breached threshold, skipped when not judged. */
function addThresholdSuite(
  thresholds: ReportDocument['thresholds'],
  breached: number,
  unjudged: number,
  openSuite: OpenSuite,
): void {
  const suite = openSuite(THRESHOLD_SUITE, thresholds, breached, 0, unjudged, 0);
  for (const t of thresholds) {
    const tc = suite.ele('testcase', { classname: THRESHOLD_SUITE, name: attr(t.expression), time: '0.000' });
    if (t.status === 'breached')
      tc.ele('failure', { message: attr(thresholdVerdictText(t)), type: 'threshold' }).txt(
        xmlSafe(`${t.expression}\n${describeThreshold(t)}`),
      );
    else if (t.status !== 'passed') tc.ele('skipped', { message: attr(thresholdVerdictText(t)) });
  }
}

/** Renders `report` as a JUnit XML document (UTF-8, pretty-printed). */
export function renderJUnit(report: ReportDocument, opts: JUnitOptions = {}): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const bySuite = new Map<string, ScenarioEntry[]>();
  for (const s of report.scenarios) bySuite.set(s.suite, [...(bySuite.get(s.suite) ?? []), s]);
  const breached = report.thresholds.filter((t) => !t.passed).length;
  const unjudged = report.thresholds.filter((t) => t.status !== 'passed' && t.status !== 'breached').length;
  const withThresholds = (opts.thresholds ?? true) && report.thresholds.length > 0;
  const all = report.scenarios;
  const tallyCases = report.scenarios.length === 0 ? (report.tallies ?? []) : [];
  // The total is the sum of the suites' times, each the sum of its testcases' (whole ms): they add up.
  const totalMs = all.reduce((n, s) => n + caseMs(s), 0);
  const redteamCases = report.redteam ? redteamTestcases(report.redteam) : [];
  const root = doc.ele('testsuites', {
    name: 'droidcheck',
    tests: String(
      all.length + tallyCases.length + (withThresholds ? report.thresholds.length : 0) + redteamCases.length,
    ),
    failures: String(
      countOf(all, 'failure') +
        tallyCases.filter((t) => t.failed > 0).length +
        (withThresholds ? breached : 0) +
        redteamCases.filter((c) => c.failure).length,
    ),
    errors: String(countOf(all, 'error')),
    skipped: String(
      countOf(all, 'skipped') +
        (withThresholds ? unjudged : 0) +
        redteamCases.filter((c) => c.skipped !== undefined).length,
    ),
    time: seconds(totalMs),
    timestamp: report.startedAt,
  });
  const openSuite = suiteOpener(root, report.startedAt, settingsProperties(report.settings));
  for (const [name, list] of bySuite) {
    const timeMs = list.reduce((sum, s) => sum + caseMs(s), 0);
    const suite = openSuite(
      name,
      list,
      countOf(list, 'failure'),
      countOf(list, 'error'),
      countOf(list, 'skipped'),
      timeMs,
    );
    for (const s of list) addTestcase(suite, s, passRateOf(report.passRates, s.suite, s.name, s.mode));
  }
  addTallySuites(tallyCases, openSuite);
  if (report.redteam) addRedteamSuite(report.redteam, openSuite);
  if (withThresholds) addThresholdSuite(report.thresholds, breached, unjudged, openSuite);
  return doc.end({ prettyPrint: true });
}

/** Writes `<dir>/<opts.fileName>` (default junit.xml; mkdir -p); resolves the file's path. */
export async function writeJUnitReport(
  dir: string,
  report: ReportDocument,
  opts: JUnitOptions & { fileName?: string } = {},
): Promise<string> {
  await makeDir(dir);
  const path = join(dir, opts.fileName ?? JUNIT_REPORT_FILE);
  await writeFile(path, `${renderJUnit(report, opts)}\n`, 'utf8');
  return path;
}
