/**
 * `droidcheck validate`, `schema`, `init` and `run --tag/--grep`, in process (createProgram with
 * captured streams); runs use the embedded emulator on 127.0.0.1.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import type { CliContext } from '../../src/cli/shared.js';
import { parseGrep } from '../../src/config/index.js';
import { ScenarioError, UsageError } from '../../src/errors.js';
import { loadPolicy } from '../../src/policy/index.js';
import { sink } from '../helpers/in-process-cli.js';

async function cli(args: string[]): Promise<{ ctx: CliContext; stdout: string; stderr: string }> {
  const stdout = sink();
  const stderr = sink();
  const ctx: CliContext = { stdout, stderr, env: { CI: 'true' }, color: false, exitCode: 0 };
  await createProgram(ctx).parseAsync(['node', 'droidcheck', ...args]);
  return { ctx, stdout: stdout.text, stderr: stderr.text };
}

describe('validate, schema, init', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-vsi-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('init writes a starter suite, the schema and .env.example, and keeps existing files', async () => {
    const first = await cli(['init', dir]);
    expect(first.stdout).toContain('wrote scenarios/starter.yaml');
    expect(first.stdout).toContain('wrote droidcheck.schema.json');
    expect(first.stdout).toContain('wrote .env.example');
    expect(first.stdout).toContain('wrote droidcheck.policy.yaml');
    // The demo shop's policy: its price list is the emulator profile's.
    const policy = loadPolicy(join(dir, 'droidcheck.policy.yaml'));
    expect(policy.catalogue?.find((p) => p.name === 'Oxford shirt')?.price).toBe(1290);
    expect(policy.shipping).toEqual({ fee: 50, freeFrom: 1500 });
    // ...and its intents are the profile's: a run's coverage names those its suites never saw.
    expect(policy.intents).toEqual([
      'complaint',
      'return_request',
      'purchase',
      'product_inquiry',
      'shipping',
      'payment',
      'contact_update',
      'greeting',
      'thanks',
      'general_inquiry',
    ]);
    const again = await cli(['init', dir]);
    expect(again.stdout).toContain('kept scenarios/starter.yaml (exists; --force overwrites)');
    expect(await readFile(join(dir, 'scenarios', 'starter.yaml'), 'utf8')).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/droidcheck\.schema\.json\n/,
    );
    expect(await readFile(join(dir, '.env.example'), 'utf8')).toContain('DROID_API_TOKEN=\n');
  });

  it('validate accepts the starter suite and the example suites', async () => {
    const out = await cli(['validate', join(dir, 'scenarios')]);
    expect(out.stdout).toBe('ok: 1 suite(s), 4 scenario(s), 3 step(s)\n');
    expect(out.ctx.exitCode).toBe(0);
    expect((await cli(['validate', 'scenarios/steps'])).stdout).toMatch(/^ok: 4 suite\(s\)/);
  });

  it('validate reports every mistake with file:line:col (exit 2 via ScenarioError)', async () => {
    const bad = join(dir, 'bad.yaml');
    await writeFile(
      bad,
      'suite: bad\nscenarios:\n  - name: a\n    steps:\n      - call: customer\n        customerId: "{{ vars.who }}"\n  - name: a\n    humanMesage: hi\n',
    );
    const err = await cli(['validate', bad]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScenarioError);
    expect((err as ScenarioError).exitCode).toBe(2);
    expect((err as ScenarioError).message.split('\n')).toEqual([
      `${bad}:6:21: undefined variable "who": define it in "vars:" or capture it in an earlier step (none is defined yet)`,
      `${bad}:7:11: duplicate scenario name "a" (first used at line 3); names must be unique in a suite`,
      `${bad}:8:5: unknown key "humanMesage" — did you mean "humanMessage"?`,
    ]);
  });

  it('schema prints the JSON Schema of the format', async () => {
    const out = await cli(['schema']);
    const schema = JSON.parse(out.stdout) as { title: string; properties: Record<string, unknown> };
    expect(schema.title).toBe('droidcheck scenario suite');
    expect(out.stdout).toContain('"steps"');
    expect(out.stdout).toContain('"imageAlt"');
  });

  it('run --tag / --grep select scenarios', async () => {
    const reports = join(dir, 'reports');
    const out = await cli(['run', join(dir, 'scenarios'), '--tag', 'smoke', '-r', 'json', '-o', reports]);
    // 0, or 99 when a cold in-process start breaks the 100 ms ack limit: no scenario failed.
    expect([0, 99]).toContain(out.ctx.exitCode);
    const report = JSON.parse(await readFile(join(reports, 'report.json'), 'utf8')) as {
      summary: { requests: number; failed: number };
      scenarios: { name: string }[];
    };
    expect(report.summary).toMatchObject({ requests: 2, failed: 0 });
    expect(new Set(report.scenarios.map((s) => s.name))).toEqual(new Set(['answers a greeting with text and intents']));
    const grep = await cli(['run', join(dir, 'scenarios'), '--grep', '/purchase/i', '-r', 'json', '-o', reports]);
    expect([0, 99]).toContain(grep.ctx.exitCode);
    const r2 = JSON.parse(await readFile(join(reports, 'report.json'), 'utf8')) as {
      summary: { requests: number; failed: number };
    };
    expect(r2.summary).toMatchObject({ requests: 6, failed: 0 });
    await expect(
      cli(['run', join(dir, 'scenarios'), '--tag', 'nothing', '-r', 'json', '-o', reports]),
    ).rejects.toBeInstanceOf(UsageError);
    expect(() => parseGrep('/(/')).toThrow(UsageError);
    expect(parseGrep('Shirts')).toBe('Shirts');
  });
});
