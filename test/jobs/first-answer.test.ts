/**
 * Answer webhooks that are not arriving, said early (runner/first-answer.ts): against a real
 * loopback fake of the service that acknowledges every async request and never delivers (its
 * answer webhook points elsewhere), a run prints one line 15 s after the first acknowledgement
 * naming how many were acknowledged, how many arrived and the URL to configure; with
 * `--first-answer-timeout` it stops there (DROIDCHECK_ERR_SETUP, exit 2) and keeps its partial
 * report. A service that delivers never sees the line.
 *
 * The 15 s are the injected clock's: it runs (and sleeps) at real speed until the service
 * acknowledged the first request, then 200 times faster, so the run's 15 s pass in well under a
 * second of wall time.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep, type Clock } from '../../src/clock.js';
import { resolveConfig } from '../../src/config/index.js';
import { SetupError } from '../../src/errors.js';
import { run } from '../../src/jobs/index.js';
import type { ReportDocument } from '../../src/report/index.js';
import { droidcheck, freePort } from '../helpers/cli.js';
import { sink } from '../helpers/in-process-cli.js';
import { startSettingsService, type SettingsService } from '../helpers/settings-service.js';

const SECRET = 'first-answer-secret-0123456789abcdefghij';
const SUITE = `suite: Async
scenarios:
  - name: hello
    modes: [async]
    repeat: 6
    humanMessage: Hello
`;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** Real time until `started()` turns true, then `factor` times faster (its sleeps too). */
function fastAfter(started: () => boolean, factor = 200): Clock {
  const fast = (): boolean => {
    if (from === undefined && started()) from = performance.now();
    return from !== undefined;
  };
  let from: number | undefined;
  return {
    now: () => {
      const t = performance.now();
      return fast() ? from! + (t - from!) * factor : t;
    },
    wallNow: () => new Date(),
    sleep: (ms, signal) => sleep(fast() ? ms / factor : ms, { signal }),
  };
}

async function setUp(deliver = false) {
  const port = await freePort();
  const s: SettingsService = await startSettingsService(
    deliver ? { deliver: { answerUrl: `http://127.0.0.1:${port}/webhook?secret=${SECRET}` } } : {},
  );
  closers.push(() => s.close());
  const dir = await mkdtemp(join(tmpdir(), 'droidcheck-first-answer-'));
  closers.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'async.yaml'), SUITE);
  const config = (flags: Record<string, unknown> = {}) =>
    resolveConfig(
      'run',
      {
        paths: [join(dir, 'async.yaml')],
        baseUrl: s.url,
        droidId: String(s.droidId),
        receiverPort: port,
        reportDir: join(dir, 'out'),
        reporters: ['console', 'json'],
        warmUp: false,
        concurrency: 2,
        // The receiver runs on the job's clock: an hour of it is 18 s of wall time at 200x, so no
        // answer deadline ends the run before the watch speaks.
        timeout: '1h',
        ...flags,
      },
      { DROID_API_TOKEN: s.token, DROID_WEBHOOK_SECRET: SECRET },
    );
  return { s, port, dir, config };
}

describe('answer webhooks that never arrive', () => {
  it('prints one line 15 s (of the run clock) after the first acknowledgement, naming the counts and the URL', async () => {
    const { s, port, config } = await setUp();
    const stderr = sink();
    const stop = new AbortController();
    const abort = new AbortController();
    const t0 = performance.now();
    const watch = setInterval(() => {
      if (stderr.text.includes('answer webhooks are not arriving')) {
        stop.abort();
        abort.abort();
      }
    }, 20);
    closers.push(async () => clearInterval(watch));
    const summary = await run(config(), {
      stdout: sink(),
      stderr,
      env: {},
      clock: fastAfter(() => s.stats.asyncAcked > 0),
      stopSignal: stop.signal,
      abortSignal: abort.signal,
    });
    const lines = stderr.text.split('\n').filter((l) => l.includes('answer webhooks are not arriving'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^droidcheck: answer webhooks are not arriving: [2-6] requests acknowledged, 0 answers arrived in 15 s since the first acknowledgement, and nothing else reached droidcheck/,
    );
    expect(lines[0]).toContain(
      `the service must post its answers to http://127.0.0.1:${port}/webhook (Settings > Integrations, "When AI Answer Ready")`,
    );
    expect(lines[0]).not.toContain(SECRET);
    // Interrupted by the test once the line was there, far sooner than any answer deadline.
    expect(summary.exitCode).toBe(130);
    expect(performance.now() - t0).toBeLessThan(60_000);
  });

  it('with --first-answer-timeout, stops there: DROIDCHECK_ERR_SETUP, the waiting requests interrupted, the report kept', async () => {
    const { s, port, config } = await setUp();
    const cfg = config({ firstAnswerTimeout: '20s' });
    const stderr = sink();
    const error = await run(cfg, {
      stdout: sink(),
      stderr,
      env: {},
      clock: fastAfter(() => s.stats.asyncAcked > 0),
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(SetupError);
    const message = (error as SetupError).message;
    expect(message).toMatch(
      /^no answer webhook within --first-answer-timeout 20 s: [2-6] requests acknowledged, 0 answers arrived in 20 s since the first acknowledgement/,
    );
    expect(message).toContain(
      `set the service's answer webhook (Settings > Integrations, "When AI Answer Ready") to http://127.0.0.1:${port}/webhook`,
    );
    // The hint (at 15 s) once before it.
    expect(stderr.text.match(/answer webhooks are not arriving/g)).toHaveLength(1);
    const report = JSON.parse(await readFile(join(cfg.reportDir, 'report.json'), 'utf8')) as ReportDocument;
    expect(report.exitCode).toBe(2);
    expect(report.summary.outcomes.interrupted).toBeGreaterThan(0);
    expect(report.summary.outcomes.answered).toBe(0);
  });

  it('says nothing when the service delivers', async () => {
    const { s, config } = await setUp(true);
    const stderr = sink();
    const summary = await run(config({ firstAnswerTimeout: '20s' }), {
      stdout: sink(),
      stderr,
      env: {},
      // 20 times faster: the first answer arrives within the 750 ms its 15 s take.
      clock: fastAfter(() => s.stats.asyncAcked > 0, 20),
    });
    expect(summary.exitCode, stderr.text).toBe(0);
    expect(summary.report.summary.outcomes.answered).toBe(6);
    expect(stderr.text).not.toContain('not arriving');
  });

  it('the CLI: --first-answer-timeout exits 2 with the sentence (a short one, on the wall clock)', async () => {
    const s = await startSettingsService();
    closers.push(() => s.close());
    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-first-answer-cli-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'async.yaml'), SUITE);
    const port = await freePort();
    const res = await droidcheck(
      [
        'run',
        join(dir, 'async.yaml'),
        '--base-url',
        s.url,
        '--droid-id',
        String(s.droidId),
        '--receiver-port',
        String(port),
        '--first-answer-timeout',
        '1s',
        '--reporter',
        'console',
        '--no-warm-up',
      ],
      { env: { DROID_API_TOKEN: s.token, DROID_WEBHOOK_SECRET: SECRET } },
    );
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/DROIDCHECK_ERR_SETUP: no answer webhook within --first-answer-timeout 1 s: /);
    expect(res.stderr).toContain(`to http://127.0.0.1:${port}/webhook`);
    const bad = await droidcheck(['run', join(dir, 'async.yaml'), '--first-answer-timeout', '0s']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--first-answer-timeout: must be > 0, e\.g\. 20s/);
  });
});
