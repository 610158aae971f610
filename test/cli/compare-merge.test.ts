/** `droidcheck compare` and `droidcheck merge`, in process through createProgram. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import type { CliContext } from '../../src/cli/shared.js';
import { isDroidcheckError } from '../../src/errors.js';
import { buildReport, parseReportDocument } from '../../src/report/index.js';
import { failingRecord, record, run } from '../report/fixtures.js';

async function cli(args: string[]): Promise<{ code: number; stdout: string }> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += d));
  const ctx: CliContext = { stdout, stderr: new PassThrough(), env: {}, color: false, exitCode: 0 };
  try {
    await createProgram(ctx).parseAsync(['node', 'droidcheck', ...args]);
    return { code: ctx.exitCode, stdout: out };
  } catch (err) {
    if (isDroidcheckError(err)) return { code: err.exitCode, stdout: `${out}${err.message}` };
    throw err;
  }
}

describe('droidcheck compare / merge', () => {
  let dir: string;
  const file = (name: string) => join(dir, name);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-cm-'));
    const good = buildReport(run([record(), record({ seq: 1, scenario: 'greets', syncMs: 80 })]));
    const worse = buildReport(
      run([record({ syncMs: 300 }), failingRecord({ scenario: 'greets', mode: 'sync', syncMs: 80 })]),
    );
    await writeFile(file('base.json'), JSON.stringify(good));
    await writeFile(file('same.json'), JSON.stringify(good));
    await writeFile(file('worse.json'), JSON.stringify(worse));
    await writeFile(file('junk.json'), '{"tool":"other"}');
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('exits 0 without a regression and 1 with one, naming what regressed', async () => {
    expect(await cli(['compare', file('base.json'), file('same.json')])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('no regression'),
    });
    const r = await cli(['compare', file('base.json'), file('worse.json')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Shop › greets [sync]: pass -> fail');
    // Rows with 2 samples say nothing: counted, after the flip, not listed (report.json has them).
    expect(r.stdout).toMatch(/\d+ latency row\(s\) with too few samples not shown/);
    expect(r.stdout.indexOf('pass -> fail')).toBeLessThan(r.stdout.indexOf('outcome'));
    expect(r.stdout).toContain('threshold ack.p99 < 100ms: absent -> too-few-samples');
    // A loose tolerance forgives any latency, not the flip.
    const loose = await cli(['compare', file('base.json'), file('worse.json'), '--tolerance', '1000']);
    expect(loose.stdout).not.toMatch(/✗\s+sync\.p/);
    expect(loose.code).toBe(1);
  });

  it('compares two targets, saying so above the result, and refuses another kind unless --force', async () => {
    const good = JSON.parse(await readFile(file('base.json'), 'utf8'));
    const remote = {
      ...good,
      settings: { ...good.settings, target: { kind: 'remote', baseUrl: 'https://droid.example.com', droidId: 7 } },
    };
    await writeFile(file('remote.json'), JSON.stringify(remote));
    // Staging against production: compared (exit 0 or 1, never 2), the difference said first.
    const two = await cli(['compare', file('base.json'), file('remote.json')]);
    expect(two.code, two.stdout).toBe(0);
    expect(two.stdout.split('\n')[0]).toBe(
      'not alike: target: unknown in the baseline, https://droid.example.com (droid 7) now',
    );
    expect(two.stdout.split('\n')[1]).toMatch(/^Baseline {2}no regression/);
    await writeFile(file('load.json'), JSON.stringify({ ...good, kind: 'load' }));
    const refused = await cli(['compare', file('base.json'), file('load.json')]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/are runs of another kind \(run vs load\); pass --force to compare them anyway/);
    expect((await cli(['compare', file('base.json'), file('load.json'), '--force'])).code).toBe(0);
    // Alike enough to compare, but not the same run: said first, the verdict after.
    const other = {
      ...good,
      toolVersion: '0.0.1',
      durationMs: good.durationMs * 3,
      scenarios: good.scenarios.map((e: { mode: string }) => ({ ...e, mode: 'async' })),
    };
    await writeFile(file('other.json'), JSON.stringify(other));
    const r = await cli(['compare', file('base.json'), file('other.json')]);
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'not alike: duration: 2 s in the baseline, 6 s now',
      'not alike: mode mix: 100% sync / 0% async in the baseline, 0% sync / 100% async now',
      `not alike: droidcheck version: ${good.toolVersion} in the baseline, 0.0.1 now`,
    ]);
    expect(lines[3]).toMatch(/^Baseline {2}/);
  });

  it('exits 2 naming a file that is missing or not a report, or a bad tolerance', async () => {
    expect(await cli(['compare', file('base.json'), file('junk.json')])).toMatchObject({
      code: 2,
      stdout: expect.stringContaining('junk.json: not a droidcheck report'),
    });
    expect(await cli(['compare', file('nope.json'), file('base.json')])).toMatchObject({
      code: 2,
      stdout: expect.stringContaining('nope.json: cannot read'),
    });
    expect((await cli(['compare', file('base.json'), file('same.json'), '--tolerance', 'x'])).code).toBe(2);
  });

  it('merges shard reports into one report set and exits with the merged code', async () => {
    const out = join(dir, 'merged');
    const r = await cli([
      'merge',
      file('base.json'),
      file('worse.json'),
      '-o',
      out,
      '--output-file',
      `junit=${join(dir, 'ci', 'tests.xml')}`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('droidcheck run: 4 requests');
    const merged = parseReportDocument(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    expect(merged.summary).toMatchObject({ requests: 4, passed: 3, failed: 1 });
    expect(merged.latency.sync.count).toBe(4);
    expect(merged.settings.mergedReports).toBe(2);
    expect(await readFile(join(dir, 'ci', 'tests.xml'), 'utf8')).toContain('<testsuites');
    expect(await readFile(join(out, 'report.html'), 'utf8')).toContain('<!doctype html>');
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toContain('droidcheck');
    // A threshold judged on the merged figures: 99 wins over 1.
    expect(
      (await cli(['merge', file('base.json'), file('worse.json'), '-o', out, '--threshold', 'sync.max < 200ms'])).code,
    ).toBe(99);
    expect((await cli(['merge', file('base.json'), file('junk.json'), '-o', out])).code).toBe(2);
  });
});
