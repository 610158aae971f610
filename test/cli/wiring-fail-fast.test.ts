/**
 * Wiring mistakes the receiver can see stop a run at once (src/receiver/wiring.ts,
 * src/runner/wiring-stop.ts), through the CLI (in process) against real services on 127.0.0.1,
 * each with the default 180 s answer deadline that the run used to wait out:
 *
 * - the emulator posts every answer with a wrong `?secret=`: exit 2 with one sentence naming
 *   DROID_WEBHOOK_SECRET and the service's setting, the partial report written (exit 2 in it,
 *   the receiver's counts balanced), the wrong value in no output;
 * - the message webhook points at the answer route (bodies without a requestId), the answers go
 *   elsewhere: exit 2 naming the answer webhook and /messages;
 * - another droid's answer webhook points here: exit 2 naming both droids;
 * - a healthy run with stray bad-secret deliveries, 2 before its first answer and 3 after, is
 *   not stopped (exit 0, every answer matched).
 * Each run would wait 180 s per answer without the stop, past HANG_MS: how fast it stops is
 * wiring-fail-fast.timing.test.ts's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { freePort, until } from '../helpers/cli.js';
import { HANG_MS } from '../helpers/hang.js';
import { startInProcess, type InProcessRun } from '../helpers/in-process-cli.js';
import { startSettingsService } from '../helpers/settings-service.js';
import { unwrapped } from '../helpers/console-text.js';

const TOKEN = 'tok_wiring_0123456789abcdefghijklmnopq';
const SECRET = 'wiring-right-secret-0123456789abcdefghij';
const WRONG = 'wiring-WRONG-secret-9876543210zyxwvutsrq';
const SENTENCE_END = "the run stopped instead of waiting out each answer's deadline";

// A run that waits out the 180 s answer deadline (no stop) must fail: the shared hang bound is below it.
if (HANG_MS >= 180_000) throw new Error('these tests need HANG_MS below the 180 s answer deadline');

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  closers.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function suite(repeat: number): Promise<string> {
  const file = join(await tempDir('droidcheck-wiring-'), 'async.yaml');
  await writeFile(
    file,
    `suite: Wiring\nscenarios:\n  - name: hello\n    modes: [async]\n    repeat: ${repeat}\n    humanMessage: Hello\n`,
  );
  return file;
}

async function emulator(options: Parameters<typeof createEmulator>[0]): Promise<{ e: Emulator; url: string }> {
  const e = await createEmulator({ token: TOKEN, ...options });
  closers.push(() => e.close());
  return { e, url: await e.listen() };
}

/** Starts `droidcheck run` against `baseUrl` with its receiver on `port` and every report in `out`. */
function run(file: string, baseUrl: string, droidId: number, port: number, out: string, token = TOKEN): InProcessRun {
  return startInProcess(
    [
      'run',
      file,
      '--base-url',
      baseUrl,
      '--droid-id',
      String(droidId),
      '--receiver-port',
      String(port),
      '--concurrency',
      '3',
      '--no-warm-up',
      '--reporter',
      'console',
      '--reporter',
      'json',
      '--reporter',
      'junit',
      '--reporter',
      'html',
      '--reporter',
      'markdown',
      '--reporter',
      'ndjson',
      '-o',
      out,
    ],
    { env: { DROID_API_TOKEN: token, DROID_WEBHOOK_SECRET: SECRET } },
  );
}

interface Report {
  exitCode: number;
  durationMs: number;
  summary: { outcomes: Record<string, number> };
  receiver: Record<string, number>;
}

function readReport(out: string): Report {
  return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
}

/** Every output of the run: stdout, stderr and each report file. */
function outputs(cli: InProcessRun, out: string): [string, string][] {
  return [
    ['stdout', cli.stdout()],
    ['stderr', cli.stderr()],
    ...readdirSync(out).map((f): [string, string] => [f, readFileSync(join(out, f), 'utf8')]),
  ];
}

function setupLine(cli: InProcessRun): string {
  return (
    cli
      .stderr()
      .split('\n')
      .find((l) => l.includes('DROIDCHECK_ERR_SETUP')) ?? ''
  );
}

/** Resolves once the receiver on `port` answers its health check (a probe that is no delivery). */
async function receiverUp(port: number): Promise<void> {
  let up = false;
  await until(() => {
    void request(`http://127.0.0.1:${port}/healthz`).then(
      async (res) => {
        await res.body.dump();
        up = res.statusCode === 200;
      },
      () => undefined,
    );
    return up;
  }, "the run's receiver");
}

async function postStray(port: number, n: number): Promise<void> {
  const res = await request(`http://127.0.0.1:${port}/webhook?secret=${encodeURIComponent(WRONG)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ requestId: `tpa-stray-${n}`, droidId: 1, answer: 'stray' }),
  });
  await res.body.dump();
  expect(res.statusCode).toBe(401);
}

describe('a run whose answer webhooks cannot be matched stops at once (exit 2, one sentence)', () => {
  it('every answer with a wrong ?secret=: names DROID_WEBHOOK_SECRET, writes the report, leaks no secret', async () => {
    const port = await freePort();
    const { e, url } = await emulator({ webhookUrl: `http://127.0.0.1:${port}/webhook`, webhookSecret: WRONG });
    const out = await tempDir('droidcheck-wiring-out-');
    const cli = run(await suite(6), url, e.droidId, port, out);
    const code = await cli.exited(HANG_MS);
    expect(code, cli.stderr()).toBe(2);
    const line = setupLine(cli);
    expect(line).toMatch(
      /^droidcheck: DROIDCHECK_ERR_SETUP: the receiver refused \d+ answer webhooks for a wrong or missing \?secret= \(401\) and matched none: set the Webhook Secret of the service's answer webhook \(Settings > Integrations, "When AI Answer Ready"\) and DROID_WEBHOOK_SECRET to the same value; /,
    );
    expect(line).toContain(SENTENCE_END);
    expect(
      cli
        .stderr()
        .split('\n')
        .filter((l) => l.includes('DROIDCHECK_ERR_')).length,
    ).toBe(1);
    // The partial report: every format written, exit 2 in it, every request accounted for.
    expect(readdirSync(out)).toEqual(
      expect.arrayContaining(['report.json', 'junit.xml', 'report.html', 'summary.md', 'results.ndjson']),
    );
    const report = readReport(out);
    expect(report.exitCode).toBe(2);
    // The 3 in flight (--concurrency 3) were cut short; the other 3 were never sent.
    expect(report.summary.outcomes).toMatchObject({ interrupted: 3, 'not-sent': 3 });
    expect(report.receiver.matched).toBe(0);
    expect(report.receiver.badSecret).toBeGreaterThanOrEqual(3);
    expect(unwrapped(cli.stdout())).toContain(
      'the run stopped before the webhook arrived: the receiver matched no answer webhook',
    );
    expect(cli.stdout()).toMatch(/· exit 2\n/);
    // Neither the wrong secret the service sent nor the right one appears anywhere.
    for (const [name, text] of outputs(cli, out)) {
      expect(text.includes(WRONG), name).toBe(false);
      expect(text.includes(SECRET), name).toBe(false);
    }
    // Not the 180 s deadline (HANG_MS would have failed it first): how fast is the timing test's.
    expect(report.durationMs).toBeLessThan(180_000);
  });

  it('the message webhook posts to the answer route (no requestId) while the answers go elsewhere: names both routes', async () => {
    const port = await freePort();
    const s = await startSettingsService({
      deliver: {
        answerUrl: 'http://127.0.0.1:9/webhook', // nothing listens: the answers are lost
        messagesUrl: `http://127.0.0.1:${port}/webhook?secret=${encodeURIComponent(SECRET)}`,
      },
    });
    closers.push(() => s.close());
    const out = await tempDir('droidcheck-wiring-out-');
    const cli = run(await suite(6), s.url, s.droidId, port, out, s.token);
    const code = await cli.exited(HANG_MS);
    expect(code, cli.stderr()).toBe(2);
    const line = setupLine(cli);
    expect(line).toContain(
      `POSTs to the answer webhook http://127.0.0.1:${port}/webhook were not an answer payload (not a JSON object with a string requestId, or too large: 400/413) and none matched: only the service's answer webhook (Settings > Integrations, "When AI Answer Ready") may point at it; the message webhook (Automation Panel) belongs at /messages`,
    );
    expect(line).not.toContain(SECRET);
    const report = readReport(out);
    expect(report.exitCode).toBe(2);
    expect(report.receiver.malformed).toBeGreaterThanOrEqual(3);
  });

  it("another droid's answer webhook points here: names both droids and the URL", async () => {
    const port = await freePort();
    const ours = await startSettingsService({ droidId: 7 }); // acknowledges, never delivers
    const other = await startSettingsService({
      droidId: 8,
      deliver: { answerUrl: `http://127.0.0.1:${port}/webhook?secret=${encodeURIComponent(SECRET)}` },
    });
    closers.push(
      () => ours.close(),
      () => other.close(),
    );
    const out = await tempDir('droidcheck-wiring-out-');
    const cli = run(await suite(6), ours.url, ours.droidId, port, out, ours.token);
    await receiverUp(port);
    // Droid 8's traffic (someone else's client), answered to this run's receiver.
    for (let i = 0; i < 3; i++) {
      const res = await request(`${other.url}/api/droids/8/endpoint/get-droid-answer-async`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ humanMessage: { content: `other ${i}`, type: 'human' }, chatHistory: [] }),
      });
      await res.body.dump();
      expect(res.statusCode).toBe(200);
    }
    const code = await cli.exited(HANG_MS);
    expect(code, cli.stderr()).toBe(2);
    expect(setupLine(cli)).toContain(
      `3 answer webhooks of droid 8, not of droid 7, reached the receiver and none of this run's matched: the answer webhook of droid 8 points at http://127.0.0.1:${port}/webhook; set droid 7's answer webhook (Settings > Integrations, "When AI Answer Ready") to it, or run with --droid-id 8`,
    );
    const report = readReport(out);
    expect(report.exitCode).toBe(2);
    // The 3 parked answers became orphans when the receiver closed: the counts still balance.
    expect(report.receiver.orphans).toBe(3);
    expect(ours.stats.asyncAcked).toBeLessThanOrEqual(1 + 6);
  });
});

describe('a healthy run with stray deliveries is not stopped', () => {
  it('2 bad-secret strays before the first answer and 3 after: exit 0, every answer matched', async () => {
    const port = await freePort();
    const { e, url } = await emulator({
      webhookUrl: `http://127.0.0.1:${port}/webhook`,
      webhookSecret: SECRET,
      answerDelayMs: 1_500,
    });
    const out = await tempDir('droidcheck-wiring-out-');
    const cli = run(await suite(6), url, e.droidId, port, out);
    await receiverUp(port);
    await postStray(port, 1);
    await postStray(port, 2);
    await until(() => e.stats().delivered >= 1, 'the first answer webhook');
    for (let n = 3; n <= 5; n++) await postStray(port, n);
    const code = await cli.exited(HANG_MS);
    expect(code, cli.stderr() + cli.stdout()).toBe(0);
    expect(cli.stderr()).not.toContain('DROIDCHECK_ERR_SETUP');
    const report = readReport(out);
    expect(report.summary.outcomes.answered).toBe(6);
    expect(report.receiver.matched).toBe(6);
    expect(report.receiver.badSecret).toBe(5);
    for (const [name, text] of outputs(cli, out)) expect(text.includes(WRONG), name).toBe(false);
  });
});
