/**
 * Capacity judged by answer quality, against two implementations whose answers take 200 ms and,
 * above 4 answers in progress, lose their cart and intents (latency unchanged): the emulator's
 * planted knee (`degradeAbove`) and the second implementation's saturation
 * (test/helpers/alt-service.ts), so the test does not rest on the emulator alone. A sync search
 * 10..40 req/s by 10 finds at most 20 req/s, ended by "answers degraded", with the latency-only
 * capacity (40 req/s, the top of the search: latency held at every rate) beside it;
 * `--min-pass-rate 0%` finds 40 req/s. At 10 req/s about 2 answers are in progress, at 30 about
 * 6: far on either side of the knee, so timers late by tens of ms on a busy machine move no
 * verdict the assertions depend on (the 20 req/s step, right at the knee, may go either way and
 * is not asserted). It is a timing test: the knee is made of time (answers in progress = rate x
 * 200 ms).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { runCapacity } from '../../src/jobs/index.js';
import { readReportFile, type ReportDocument } from '../../src/report/index.js';
import { startAltService, type AltService } from '../helpers/alt-service.js';

/** Expects what any shop's purchase answer holds: a cart line and an intent (the names are the shop's). */
const SUITE = `
suite: Quality under load
scenarios:
  - name: a purchase fills the cart and raises an intent
    modes: [sync]
    humanMessage: I want to buy 2 shirts
    expect:
      shoppingCart.products: { minLength: 1 }
      intents: { minLength: 1 }
`;

let dir: string;
let emulator: Emulator;
let emulatorUrl: string;
let alt: AltService;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-capacity-quality-'));
  await writeFile(join(dir, 'quality.yaml'), SUITE);
  emulator = await createEmulator({ answerDelayMs: 200, degradeAbove: 4 });
  emulatorUrl = await emulator.listen();
  alt = await startAltService({ saturation: { answerMs: 200, degradeAbove: 4 } });
});
afterAll(async () => {
  await emulator?.close();
  await alt?.close();
  await rm(dir, { recursive: true, force: true });
});

const sink = () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => void (text += c.toString()));
  return { stream, text: () => text };
};

/** `droidcheck capacity --mode sync --start-rate 10 --step 10 --max-rate 40` (1 s steps) against `target`. */
async function capacity(
  target: { baseUrl: string; droidId: number; token: string },
  name: string,
  minPassRate?: string,
): Promise<{ report: ReportDocument; exitCode: number; console: string; html: string }> {
  const reportDir = join(dir, name);
  const config = resolveConfig(
    'capacity',
    {
      paths: [join(dir, 'quality.yaml')],
      mode: 'sync',
      startRate: 10,
      step: 10,
      maxRate: 40,
      stepDuration: '1s',
      warmup: '200ms',
      baseUrl: target.baseUrl,
      droidId: target.droidId,
      reportDir,
      ...(minPassRate !== undefined && { minPassRate }),
    },
    { DROID_API_TOKEN: target.token },
  );
  const out = sink();
  const summary = await runCapacity(config, { stdout: out.stream, stderr: sink().stream, env: {} });
  return {
    report: await readReportFile(join(reportDir, 'report.json')),
    exitCode: summary.exitCode,
    console: out.text(),
    html: await readFile(join(reportDir, 'report.html'), 'utf8'),
  };
}

const targets = {
  'the emulator (--degrade-above 4)': () => ({
    baseUrl: emulatorUrl,
    droidId: emulator.droidId,
    token: emulator.token,
  }),
  'the second implementation': () => ({ baseUrl: alt.url, droidId: alt.droidId, token: alt.token }),
};

describe.each(Object.entries(targets))('capacity against %s: answers degrade above 4 in progress', (name, target) => {
  it('is 20 req/s or less, ended by "answers degraded", with the latency-only capacity beside it', async () => {
    const { report, exitCode, console: text, html } = await capacity(target(), `${name}-99`);
    const c = report.capacity!;
    expect(c.criteria.minPassRate).toBe(0.99);
    expect(c.maxRate ?? 0).toBeLessThanOrEqual(20);
    expect(c.endedBy!.criteria).toContain('answers');
    expect(c.endedBy!.reasons.join('; ')).toMatch(/answers degraded: [\d.]+% right at (10|20|30) req\/s/);
    expect(c.latencyOnly!.maxRate).toBeGreaterThanOrEqual(40);
    expect(exitCode).toBe(c.maxRate === null ? 99 : 0);
    // Every point carries the pass share and its Wilson 95% interval; at 30 req/s most answers are wrong.
    for (const p of c.curve) {
      expect(p.answers!.judged).toBeGreaterThan(0);
      expect(p.answers!.interval.low).toBeLessThanOrEqual(p.answers!.share!);
      expect(p.answers!.interval.high).toBeGreaterThanOrEqual(p.answers!.share!);
    }
    const at30 = c.curve.find((p) => p.rate === 30)!;
    expect(at30.answers!.share!).toBeLessThan(0.5);
    expect(at30).toMatchObject({ passed: false, latencyPassed: true });
    // The timeline's intervals carry it too.
    expect(report.timeline!.points.some((p) => p.answers !== undefined && p.answers.share! < 0.5)).toBe(true);
    // The console names the knee and the latency-only capacity; the page draws both axes.
    expect(text).toMatch(
      /Capacity {2}(\d+ req\/s \(answers and latency held\)|no rate passed) · latency only: \d+ req\/s/,
    );
    expect(text).toContain('answers degraded');
    expect(html).toContain('id="chart-capacity-quality"');
  });

  it('--min-pass-rate 0% judges latency only: 40 req/s or more', async () => {
    const { report, exitCode } = await capacity(target(), `${name}-0`, '0%');
    const c = report.capacity!;
    expect(c.criteria.minPassRate).toBe(0);
    expect(c.maxRate).toBeGreaterThanOrEqual(40);
    expect(c.endedBy?.criteria ?? []).not.toContain('answers');
    expect(exitCode).toBe(0);
    // The share is still measured, only not judged.
    expect(c.curve.find((p) => p.rate === 30)!.answers!.share!).toBeLessThan(0.5);
  });
});
