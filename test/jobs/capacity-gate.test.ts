/**
 * Capacity as a CI gate, against the embedded emulator (inline, 127.0.0.1): a step too short for
 * the 100 samples a p99 needs is measured longer and says so (never judged on fewer: no exit 99
 * for "too few samples"); a criterion no step could judge is refused before anything is sent.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { UsageError } from '../../src/errors.js';
import { runCapacity } from '../../src/jobs/index.js';
import { sink } from '../helpers/in-process-cli.js';
import { unwrapped } from '../helpers/console-text.js';

const SUITE = `suite: Gate
scenarios:
  - name: greets
    humanMessage: Hello there!
    expect:
      answer: { present: true }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-capacity-gate-'));
  await writeFile(join(dir, 'gate.yaml'), SUITE);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function capacity(name: string, flags: Record<string, unknown>) {
  const config = resolveConfig(
    'capacity',
    {
      paths: [join(dir, 'gate.yaml')],
      reportDir: join(dir, name),
      emulatorThread: 'inline',
      warmup: '0s',
      reporters: ['console', 'json'],
      ...flags,
    },
    {},
  );
  const stdout = sink();
  const stderr = sink();
  const summary = await runCapacity(config, { stdout, stderr, env: {} });
  return { summary, stdout: stdout.text, stderr: stderr.text };
}

describe('a capacity step too short for its criteria', () => {
  it('is measured long enough for 100 acks, says so, and is judged on them', async () => {
    // 50 req/s for 1 s is 50 acks: lengthened to the 102 arrivals 100 acks need (2.1 s).
    const r = await capacity('lengthened', { mode: 'async', startRate: 50, maxRate: 50, stepDuration: '1s' });
    const point = r.summary.report.capacity!.curve[0]!;
    expect(point).toMatchObject({
      stepMs: 2100,
      lengthened: 'measured 2.1 s, not 1 s: 102 arrivals for the 100 samples a p99 needs',
    });
    expect(point.ack.count).toBeGreaterThanOrEqual(100);
    expect(point.reasons.filter((x) => x.startsWith('too few'))).toEqual([]);
    expect(r.stderr).toContain(
      'droidcheck capacity: 50 req/s measured 2.1 s, not 1 s: 102 arrivals for the 100 samples a p99 needs',
    );
    expect(unwrapped(r.stdout)).toContain(
      'measured longer than --step-duration for the samples a p99 needs: 50 req/s for 2.1 s',
    );
    // The knee is the console's second line.
    expect(unwrapped(r.stdout).split('\n')[1]).toMatch(/^ {2}Capacity (50 req\/s \(the knee|no rate passed)/);
  });

  it('refuses before anything is sent a criterion no step could judge', async () => {
    const refused = await capacity('refused', { mode: 'sync', startRate: 10, maxRate: 10, answerP99: '1s' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toMatch(
      /^--answer-p99: the mix sends no async request \(--mode sync, or sync scenarios only\), so no step could judge an answer p99/,
    );
    const tooSlow = await capacity('too-slow', { mode: 'async', startRate: 0.01, maxRate: 1 }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((tooSlow as Error).message).toMatch(
      /^--start-rate 0\.01 req\/s: a step would be measured .* more than an hour per rate: raise --start-rate$/,
    );
  });
});
