/**
 * The derivations of `webhook-policy` on hand-made attempts (how each figure is computed from
 * arrivals and answers: docs/webhook-policy.md), and an interrupt: exit 130 with the partial
 * report written.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  derivePolicy,
  PROBE_PLANS,
  webhookPolicy,
  webhookPolicyFindings,
  type ProbeState,
} from '../../src/jobs/index.js';
import { resolveConfig } from '../../src/config/index.js';
import type { Attempt } from '../../src/receiver/index.js';

const sink = (): Writable => new Writable({ write: (_c, _e, done) => done() });

/** Attempts of `probe` arriving at `at` (ms), each answered `answer` ms later with `codes[i]` (undefined: never). */
function probe(name: ProbeState['probe'], at: number[], codes: (number | undefined)[], answer = 1): ProbeState {
  const plan = PROBE_PLANS[name];
  const attempts: Attempt[] = at.map((t, i) => ({
    requestId: name,
    n: i + 1,
    at: t,
    step: plan.steps[i] ?? plan.after,
    status: codes[i],
    answeredAt: codes[i] === undefined ? undefined : t + answer,
  }));
  return { probe: name, requestId: name, sentAt: 0, attempts };
}

describe('webhook-policy derivations', () => {
  const probes = [
    probe('fail', [10, 1_011, 3_012, 7_013], [500, 500, 500, 500]),
    probe('recover', [10, 1_011], [503, 200]),
    // Stalled at 10, abandoned at 5_010 (a 5 s timeout), retried 1 s later.
    probe('stall', [10, 6_010], [undefined, 200]),
    probe('slow', [10], [200], 6_000),
  ];
  const p = derivePolicy(probes, 9_000, () => true);

  it('counts the attempts of the 500 probe and the delays from each 500 to the next arrival', () => {
    expect(p.attempts).toBe(4);
    expect(p.retryDelaysMs).toEqual([1_000, 2_000, 4_000]);
    expect(p.givesUpAfterMs).toBe(7_003);
  });

  it('takes the attempt timeout as the stalled gap minus the first retry delay', () => {
    expect(p.attemptTimeoutMs).toBe(5_000);
    expect(p.retriesOn).toEqual(['500', '503', 'timeout']);
  });

  it('a slow 200 answered and followed by nothing is no duplicate; one never answered is not known', () => {
    expect(p.duplicateAfterSlow200).toBe(false);
    expect(derivePolicy([probe('slow', [10], [undefined])], 1_000, () => true).duplicateAfterSlow200).toBeNull();
  });

  it('says each finding in a sentence, the backoff and the documented 5 s among them', () => {
    const text = webhookPolicyFindings({ ...p }).join('\n');
    expect(text).toContain('delivered 4 times in all');
    expect(text).toContain('(growing: a backoff)');
    expect(text).toContain('about the documented "answer within 5 s"');
    expect(text).toContain('"retried per a retry policy"');
    expect(text).not.toContain('Cut short');
  });

  it('a probe refused by the service counts for nothing', () => {
    const refused: ProbeState = { probe: 'fail', requestId: null, error: 'HTTP 429', sentAt: 0, attempts: [] };
    const q = derivePolicy([refused], 1_000, () => true);
    expect(q.attempts).toBeNull();
    expect(q.probes[0]).toMatchObject({ requestId: null, error: 'HTTP 429', attempts: [] });
  });
});

describe('webhook-policy interrupted', () => {
  it('stops waiting at the signal, writes the partial report and exits 130', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-policy-int-'));
    try {
      const ac = new AbortController();
      // Interrupted once its probe is on its way (its line is logged just before it is sent).
      const stderr = new Writable({
        write(chunk, _enc, done) {
          if (String(chunk).includes('one async answer each')) setTimeout(() => ac.abort(), 300).unref();
          done();
        },
      });
      const t0 = performance.now();
      const config = resolveConfig(
        'webhook-policy',
        {
          webhookAttempts: 5,
          webhookBackoff: '5s',
          webhookTimeout: '5s',
          webhookJitter: 0,
          timeout: '60s',
          quiet: '30s',
          probes: 'fail',
          reportDir: dir,
          emulatorThread: 'inline',
        },
        {},
      );
      const result = await webhookPolicy(config, { stderr, stdout: sink(), stopSignal: ac.signal });
      // Ended by the signal, not by the 30 s quiet period (the bound is the quiet period, not a speed).
      expect(performance.now() - t0).toBeLessThan(30_000);
      expect(result.exitCode).toBe(130);
      expect(result.report.webhookPolicy?.complete).toBe(false);
      const doc = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as {
        exitCode: number;
        webhookPolicy: { findings: string[] };
      };
      expect(doc.exitCode).toBe(130);
      expect(doc.webhookPolicy.findings.join(' ')).toContain('Cut short');
      // Its probes are not requests of the engine: no passed/failed, outcomes, latency or failures.
      const md = await readFile(join(dir, 'summary.md'), 'utf8');
      expect(md.split('\n')[0]).toBe('## ❌ droidcheck webhook-policy: not measured (exit 130)');
      expect(md).toMatch(/^1 probe, one async answer each, in \S+ \S+, started \S+\.$/m);
      expect(md).not.toMatch(/### (Outcomes|Latency|Failures)|passed, \d+ failed|requests sent/);
      expect(md).toContain('Webhook retry policy');
      const html = await readFile(join(dir, 'report.html'), 'utf8');
      expect(html).toContain('<h1>droidcheck webhook-policy: not measured — ');
      expect(html).not.toMatch(/<h2[^>]*>(Outcomes|Latency|Failures)|href="#failures"/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
