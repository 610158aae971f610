/**
 * Every report droidcheck writes reads back (a failure without `actual` once made `compare`,
 * `merge`, `--baseline` and report.schema.json refuse droidcheck's own report). Reading is
 * strict, so a field written but not described in a section's schema fails here too.
 *
 * Over each report.json that the CLI runs of the earlier projects wrote (collected by
 * helpers/cli.ts; `npm test` runs this project last), and over a report with every kind of
 * failure: valid against the shipped report.schema.json (ajv, draft 2020-12), read by
 * `readReportFile` and `loadBaseline` (what `compare` and `--baseline` read), no regression
 * against itself, and merged with itself (what `merge` does), the merge valid too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '../../src/outcomes.js';
import {
  buildReport,
  compareReports,
  loadBaseline,
  mergeReports,
  readReportFile,
  type ReportDocument,
} from '../../src/report/index.js';
import type { RequestRecord } from '../../src/report/run-types.js';
import { COLLECTED_REPORTS, REPO } from '../helpers/cli.js';
import { record, run } from './fixtures.js';

const schema = JSON.parse(readFileSync(join(REPO, 'report.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const schemaErrors = (): string =>
  (validate.errors ?? [])
    .slice(0, 3)
    .map((e: ErrorObject) => `${e.instancePath} ${e.message ?? ''}`)
    .join('; ');

/** The checks every report must pass; returns what failed, one line each. */
async function readsBack(name: string, file: string): Promise<string[]> {
  const problems: string[] = [];
  const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!validate(json)) problems.push(`${name}: report.schema.json: ${schemaErrors()}`);
  let report: ReportDocument;
  try {
    report = await readReportFile(file);
    await loadBaseline(file);
  } catch (err) {
    return [...problems, `${name}: compare/--baseline refuse it: ${(err as Error).message}`];
  }
  const self = compareReports(report, report);
  if (self.regressed) problems.push(`${name}: compare calls it a regression against itself`);
  try {
    const merged = mergeReports([report, report]);
    if (!validate(JSON.parse(JSON.stringify(merged))))
      problems.push(`${name}: its merge fails report.schema.json: ${schemaErrors()}`);
  } catch (err) {
    problems.push(`${name}: merge refuses it: ${(err as Error).message}`);
  }
  return problems;
}

describe('every report droidcheck writes reads back', () => {
  it('each report.json the CLI runs of the test suite wrote', async () => {
    expect(
      existsSync(COLLECTED_REPORTS),
      `${COLLECTED_REPORTS} is missing: run the unit project first (npm test runs it before this one)`,
    ).toBe(true);
    const files = readdirSync(COLLECTED_REPORTS).filter((f) => f.endsWith('.json'));
    // run, load, capacity, redteam, webhook-policy and merge reports; passing, failing,
    // interrupted; sharded, remote.
    expect(files.length).toBeGreaterThanOrEqual(10);
    const heads = files.map(
      (f) => JSON.parse(readFileSync(join(COLLECTED_REPORTS, f), 'utf8')) as { kind?: string; exitCode: number },
    );
    expect([...new Set(heads.map((h) => h.kind ?? 'run'))].sort()).toEqual([
      'capacity',
      'load',
      'redteam',
      'run',
      'webhook-policy',
    ]);
    expect([...new Set(heads.map((h) => h.exitCode))]).toEqual(expect.arrayContaining([0, 1, 130]));
    const problems = (await Promise.all(files.map((f) => readsBack(f, join(COLLECTED_REPORTS, f))))).flat();
    expect(problems).toEqual([]);
  });

  it('a report with every kind of failure', async () => {
    const at = { file: 'scenarios/all.yaml', line: 3, col: 7 };
    const failure = (over: Partial<RequestRecord['failures'][number]> = {}) => ({
      path: 'intents',
      matcher: 'includes',
      expected: 'refund',
      actual: ['greeting'],
      message: 'intents does not include "refund"',
      location: at,
      ...over,
    });
    const records: RequestRecord[] = [
      // An expectation on a path the answer lacks: no `actual` at all.
      record({
        seq: 0,
        scenario: 'missing path',
        passed: false,
        failures: [
          {
            path: 'shoppingCart.products.0.name',
            matcher: 'equals',
            expected: 'Oxford shirt',
            message: 'shoppingCart.products.0.name: absent',
            location: at,
          },
        ],
        answer: { answer: 'Hello' },
      }),
      record({
        seq: 1,
        scenario: 'wrong value',
        passed: false,
        failures: [
          failure(),
          failure({
            path: 'answer',
            matcher: 'judge',
            expected: 'states the price',
            actual: 'Hello',
            score: 0.2,
            reason: 'no price',
          }),
        ],
      }),
      record({
        seq: 2,
        scenario: 'contract',
        passed: false,
        contractViolations: [
          { endpoint: 'webhook', path: 'requestId', message: 'expected string', value: 7 },
          { endpoint: 'get-droid-answer', path: 'answer', message: 'required' },
        ],
      }),
      record({
        seq: 3,
        scenario: 'judge error',
        passed: false,
        judgeErrors: [
          {
            path: 'answer',
            matcher: 'similar',
            code: 'DROIDCHECK_ERR_JUDGE',
            message: 'embedding model e: cannot reach http://127.0.0.1:9/v1',
            location: at,
          },
        ],
      }),
      record({
        seq: 4,
        scenario: 'graded',
        grades: [
          {
            path: 'answer',
            matcher: 'judge',
            score: 0.9,
            pass: true,
            reason: 'ok',
            cached: true,
            calls: 0,
            location: at,
          },
        ],
      }),
      record({
        seq: 5,
        scenario: 'steps',
        passed: false,
        steps: [
          {
            index: 0,
            kind: 'say',
            endpoint: 'get-droid-answer',
            outcome: 'answered',
            passed: true,
            failures: [],
            latencyMs: 12,
          },
          {
            index: 1,
            kind: 'send',
            endpoint: 'send',
            outcome: 'answered',
            passed: false,
            failures: [
              {
                path: 'reply',
                matcher: 'noReplyWithin',
                expected: 'no reply within 5 s',
                message: 'a reply came',
                location: at,
              },
            ],
            httpStatus: 200,
          },
          {
            index: 2,
            kind: 'customer',
            endpoint: 'customer',
            outcome: 'rejected',
            passed: false,
            failures: [],
            httpStatus: 403,
            error: { code: 'DROIDCHECK_ERR_API', message: 'HTTP 403', excerpt: '{"error":"Forbidden"}' },
          },
        ],
      }),
      ...OUTCOMES.filter((o) => o !== 'answered').map((outcome, i) =>
        record({
          seq: 10 + i,
          scenario: `outcome ${outcome}`,
          mode: 'async',
          outcome,
          passed: false,
          syncMs: undefined,
          ...(outcome !== 'not-sent' && { requestId: `tpa-${i}`, ackMs: 3 }),
          ...(outcome !== 'not-sent' &&
            outcome !== 'interrupted' && {
              error: {
                code: `DROIDCHECK_ERR_${outcome.toUpperCase().replace('-', '_')}`,
                message: outcome,
                excerpt: '<html>',
                cause: 'ECONNRESET',
              },
            }),
          ...(outcome === 'rejected' && { httpStatus: 503, retries: 2 }),
        }),
      ),
    ];
    const report = buildReport(
      run(records, {
        interrupted: true,
        notes: [{ endpoint: 'send', kind: 'unverified-shape', message: 'no customerId', paths: ['customerId'] }],
        receiver: {
          received: 9,
          matched: 1,
          duplicates: 2,
          late: 1,
          orphans: 2,
          foreign: 0,
          badSecret: 1,
          malformed: 2,
          published: 0,
          unavailable: 0,
        },
      }),
      { thresholds: ['ack.p99 < 1ms', 'answer.max < 180s'] },
    );
    expect(report.exitCode).toBe(130);
    expect(report.scenarios.map((s) => s.outcome)).toEqual(expect.arrayContaining([...OUTCOMES]));
    const file = join(await mkdtemp(join(tmpdir(), 'dc-readback-')), 'report.json');
    await writeFile(file, JSON.stringify(report));
    expect(await readsBack('every kind of failure', file)).toEqual([]);
  });
});
