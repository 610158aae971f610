/**
 * JUnit XML of a ReportDocument (`junit.xml`), for CI test tabs. The suites and their testcases
 * come from the report's sections, each through its own `junit` hook (section.ts: the scenarios'
 * suites, the red team's categories, the thresholds' `droidcheck.thresholds`), in the registry's
 * order with the verdict suites last; this module only renders them. A testcase has at most one
 * problem (`<failure>`, `<error>` or `<skipped>`); a suite's counts and time are its testcases'
 * (time in seconds from whole ms, so the sums add up), the root's the sum of the suites'.
 * Settings become every suite's `<properties>` (secret-looking keys left out), then the figures
 * sections add there (section.ts `properties`: the coverage).
 */
import { writeFile } from 'node:fs/promises';
import { lazyRequire } from '../lazy-require.js';
import { makeDir } from './make-dir.js';
import { join } from 'node:path';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { JUnitCase, JUnitOptions, JUnitSuite } from './section.js';
import { SECTIONS, type ReportDocument } from './sections/index.js';

export type { JUnitOptions } from './section.js';

export const JUNIT_REPORT_FILE = 'junit.xml';

const SECRET_KEY = /token|secret|password|authorization|api[-_]?key/i;
// Characters XML 1.0 cannot hold (C0 controls but tab, LF, CR; lone surrogates; U+FFFE/F).
const INVALID_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text safe for XML 1.0: invalid characters replaced by U+FFFD. */
export function xmlSafe(text: string): string {
  return text.replace(INVALID_XML, '\uFFFD');
}

const attr = (text: string): string => xmlSafe(text.replace(/\s*\n\s*/g, ' '));
const seconds = (ms: number): string => (ms / 1000).toFixed(3);

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

/** Counts and time of a list of testcases (a suite's, or every suite's for the root). */
function totals(cases: readonly JUnitCase[]): Record<'tests' | 'failures' | 'errors' | 'skipped' | 'time', string> {
  const count = (kind: string): string => String(cases.filter((c) => c.problem?.kind === kind).length);
  return {
    tests: String(cases.length),
    failures: count('failure'),
    errors: count('error'),
    skipped: count('skipped'),
    time: seconds(cases.reduce((n, c) => n + c.timeMs, 0)),
  };
}

function addProperties(parent: XMLBuilder, properties: readonly (readonly [string, string])[]): void {
  if (properties.length === 0) return;
  const props = parent.ele('properties');
  for (const [name, value] of properties) props.ele('property', { name: attr(name), value: attr(value) });
}

function addCase(suite: XMLBuilder, c: JUnitCase): void {
  const tc = suite.ele('testcase', {
    classname: attr(c.classname),
    name: attr(c.name),
    time: seconds(c.timeMs),
    ...(c.file !== undefined && { file: attr(c.file) }),
  });
  addProperties(tc, c.properties ?? []);
  const p = c.problem;
  if (p?.kind === 'skipped') tc.ele('skipped', { message: attr(p.message) });
  else if (p) tc.ele(p.kind, { message: attr(p.message), type: attr(p.type ?? p.kind) }).txt(xmlSafe(p.text ?? ''));
}

/** Every section's suites (section.ts `junit`), in the registry's order, the verdict suites last. */
function suitesOf(report: ReportDocument, opts: JUnitOptions): JUnitSuite[] {
  const suites = SECTIONS.flatMap((s) => s.junit?.(report, opts) ?? []);
  return [...suites.filter((s) => !s.verdicts), ...suites.filter((s) => s.verdicts)];
}

/** xmlbuilder2 brings a whole DOM (~3 MB of heap), for one file written at the run's end. */
const xmlbuilder2 = lazyRequire<typeof import('xmlbuilder2')>('xmlbuilder2');

/** Renders `report` as a JUnit XML document (UTF-8, pretty-printed). */
export function renderJUnit(report: ReportDocument, opts: JUnitOptions = {}): string {
  const doc = xmlbuilder2().create({ version: '1.0', encoding: 'UTF-8' });
  const suites = suitesOf(report, opts);
  const root = doc.ele('testsuites', {
    name: 'droidcheck',
    ...totals(suites.flatMap((s) => s.cases)),
    timestamp: report.startedAt,
  });
  const properties = [...settingsProperties(report.settings), ...SECTIONS.flatMap((s) => s.properties?.(report) ?? [])];
  for (const s of suites) {
    const suite = root.ele('testsuite', { name: attr(s.name), ...totals(s.cases), timestamp: report.startedAt });
    addProperties(suite, properties);
    for (const c of s.cases) addCase(suite, c);
  }
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
