/**
 * `webhookPolicy()` measures a retry policy it does not know, on the receiving side: against the
 * embedded emulator with known settings (no jitter) and against the second implementation
 * (test/helpers/alt-service.ts) with settings of another shape (constant delay, more attempts),
 * the reported attempts, retry delays and attempt timeout agree with the configured ones within
 * 10 %. Real servers on loopback, real timers: short delays keep each run to a few seconds.
 *
 * The services run in this process, so their retry timers fire late whenever this process's event
 * loop does (a busy machine: 574 ms for a configured 500 ms). That lateness is measured while each
 * run goes on (helpers/lag.ts) and allowed on top of the 10 %: twice, as a gap between two
 * arrivals has a late timer at each end.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, type WebhookPolicyFlags } from '../../src/config/index.js';
import { webhookPolicy } from '../../src/jobs/index.js';
import { parseReportDocument } from '../../src/report/index.js';
import { startAltService } from '../helpers/alt-service.js';
import { freePort } from '../helpers/cli.js';
import { measuringLag, type Lag } from '../helpers/lag.js';
import { sink } from '../helpers/in-process-cli.js';

/** `measured` is `expected` within 10 %, plus twice the latest a timer fired during the run. */
const within = (measured: number | null | undefined, expected: number, lag: Lag): void => {
  expect(measured).not.toBeNull();
  expect(
    Math.abs(measured! - expected),
    `measured ${measured} ms, configured ${expected} ms, timers up to ${Math.round(lag.maxMs)} ms late`,
  ).toBeLessThanOrEqual(expected * 0.1 + 2 * lag.maxMs);
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-policy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The configuration of `flags` (every probe, 60 s in all, 1 s quiet) as the command resolves it, the emulator in this thread. */
const configOf = (reportDir: string, flags: WebhookPolicyFlags = {}, env: NodeJS.ProcessEnv = {}) =>
  resolveConfig('webhook-policy', { timeout: '60s', quiet: '1s', reportDir, emulatorThread: 'inline', ...flags }, env);

describe('webhook-policy', () => {
  it("reports the embedded emulator's configured policy: attempts, delays and attempt timeout within 10 %", async () => {
    const out = join(dir, 'emulator');
    const stderr = sink();
    const t0 = performance.now();
    const [result, lag] = await measuringLag(() =>
      webhookPolicy(
        configOf(out, { webhookAttempts: 3, webhookBackoff: '500ms', webhookTimeout: '1s', webhookJitter: 0 }),
        { stderr, stdout: sink() },
      ),
    );
    const p = result.report.webhookPolicy!;
    expect(result.exitCode).toBe(0);
    expect(p.complete).toBe(true);
    expect(p.attempts).toBe(3);
    expect(p.retryDelaysMs).toHaveLength(2);
    within(p.retryDelaysMs[0], 500, lag);
    within(p.retryDelaysMs[1], 1_000, lag);
    within(p.attemptTimeoutMs, 1_000, lag);
    within(p.givesUpAfterMs, 1_500, lag);
    expect(p.retriesOn).toEqual(['500', '503', 'timeout']);
    // The attempt timeout (1 s) is shorter than the slow probe's 6 s: the answer comes again.
    expect(p.duplicateAfterSlow200).toBe(true);
    expect(p.configured).toMatchObject({ attempts: 3, backoffMs: 500, timeoutMs: 1_000, jitter: 0 });
    // Given up before --timeout (60 s): the quiet period decided, not the bound.
    expect(performance.now() - t0).toBeLessThan(60_000);
    const doc = parseReportDocument(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    expect(doc.kind).toBe('webhook-policy');
    expect(doc.webhookPolicy?.probes.find((x) => x.probe === 'fail')?.attempts.map((a) => a.status)).toEqual([
      500, 500, 500,
    ]);
    const md = await readFile(join(out, 'summary.md'), 'utf8');
    expect(md.split('\n')[0]).toBe('## ✅ droidcheck webhook-policy: measured (exit 0)');
    expect(md).toContain('Webhook retry policy');
  });

  it('measures a second implementation with a policy of its own (constant delay, 4 attempts) within 10 %', async () => {
    const port = await freePort();
    const alt = await startAltService({
      answerWebhook: { url: `http://127.0.0.1:${port}/webhook`, secret: 'alt-secret-long-enough-1234' },
      duplicateEvery: 0,
      answerDelayMs: 5,
      answerRetry: { attempts: 4, delayMs: 400, timeoutMs: 1_200 },
    });
    try {
      const [result, lag] = await measuringLag(() =>
        webhookPolicy(
          configOf(
            join(dir, 'alt'),
            { receiverPort: port, baseUrl: alt.url, droidId: alt.droidId },
            { DROID_API_TOKEN: alt.token, DROID_WEBHOOK_SECRET: 'alt-secret-long-enough-1234' },
          ),
          { stderr: sink(), stdout: sink() },
        ),
      );
      const p = result.report.webhookPolicy!;
      expect(p.complete).toBe(true);
      expect(p.attempts).toBe(4);
      expect(p.retryDelaysMs).toHaveLength(3);
      for (const d of p.retryDelaysMs) within(d, 400, lag);
      within(p.attemptTimeoutMs, 1_200, lag);
      within(p.givesUpAfterMs, 1_200, lag);
      expect(p.retriesOn).toEqual(['500', '503', 'timeout']);
      expect(p.duplicateAfterSlow200).toBe(true);
      expect(p.configured).toBeUndefined();
    } finally {
      await alt.close();
    }
  });

  it('a service that does not retry: one attempt each, no timeout known, nothing retried', async () => {
    const port = await freePort();
    const alt = await startAltService({
      answerWebhook: { url: `http://127.0.0.1:${port}/webhook` },
      duplicateEvery: 0,
      answerDelayMs: 5,
    });
    try {
      const result = await webhookPolicy(
        configOf(
          join(dir, 'none'),
          { receiverPort: port, probes: 'fail,stall', baseUrl: alt.url, droidId: alt.droidId },
          { DROID_API_TOKEN: alt.token },
        ),
        { stderr: sink(), stdout: sink() },
      );
      const p = result.report.webhookPolicy!;
      expect(p.attempts).toBe(1);
      expect(p.retryDelaysMs).toEqual([]);
      expect(p.attemptTimeoutMs).toBeNull();
      expect(p.retriesOn).toEqual([]);
      expect(p.duplicateAfterSlow200).toBeNull();
      expect(p.findings.join(' ')).toContain('no retry on 500 was seen');
    } finally {
      await alt.close();
    }
  });
});
