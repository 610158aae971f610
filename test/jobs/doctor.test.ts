/**
 * `droidcheck doctor` against real servers on loopback: the embedded emulator (default), the
 * emulator as a "remote" target with a right and a wrong token, a wrong droid, a closed port, an
 * HTML page, a service whose clock is off, no answer webhook, no test customer, a wrong webhook
 * secret and a webhook that never comes; `--round-trip` through the receiver; secrets by length.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig, type DoctorFlags } from '../../src/config/index.js';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { Agent } from 'undici';
import { DroidClient } from '../../src/client/index.js';
import { systemClock } from '../../src/clock.js';
import { doctor, type DoctorCheck, type DoctorReport } from '../../src/jobs/index.js';
import { roundTrip } from '../../src/jobs/doctor/round-trip.js';
import { createReceiver } from '../../src/receiver/index.js';
import { freePort } from '../helpers/cli.js';

const SECRET = 'doctor-secret-0123456789abcdefghijklmnop';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function emulatorAt(options: EmulatorOptions = {}): Promise<{ emulator: Emulator; url: string }> {
  const emulator = await createEmulator(options);
  const url = await emulator.listen();
  closers.push(() => emulator.close());
  return { emulator, url };
}

async function serve(build: (app: FastifyInstance) => void): Promise<string> {
  const app = Fastify({ logger: false });
  build(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  closers.push(() => app.close());
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

interface Ran {
  result: DoctorReport & { exitCode: number };
  text: string;
  stderr: string;
  by: (id: DoctorCheck['id']) => DoctorCheck | undefined;
}

/** The doctor as a script runs it: its checklist is what it printed on stdout. */
async function runDoctor(flags: DoctorFlags, env: Record<string, string> = {}): Promise<Ran> {
  const stderr = new PassThrough();
  const stdout = new PassThrough();
  let err = '';
  let out = '';
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  const { report, exitCode, files } = await doctor(resolveConfig('doctor', flags, env), { stdout, stderr, env });
  expect(files).toEqual([]);
  const result = { ...report, exitCode };
  return { result, text: out, stderr: err, by: (id) => result.checks.find((c) => c.id === id) };
}

describe('doctor against the embedded emulator (default target)', () => {
  it('passes every cheap check; the webhook and test customer stay "not checked" without --round-trip', async () => {
    const { result, by, text } = await runDoctor({});
    expect(result.exitCode).toBe(0);
    for (const id of [
      'reachable',
      'api',
      'token',
      'droid',
      'webhook-secret',
      'verify-token',
      'clock',
      'network',
    ] as const)
      expect(by(id)?.status, id).toBe('pass');
    // The emulator checks the message before its settings: the invalid probe cannot prove them.
    expect(by('answer-webhook')).toMatchObject({ status: 'skip' });
    expect(by('test-customer')).toMatchObject({ status: 'skip' });
    expect(by('token')?.detail).toContain('Invalid humanMessage format, as intended');
    expect(text).toMatch(/^droidcheck doctor: the embedded emulator at http:\/\/127\.0\.0\.1:\d+ \(droid 1\)$/m);
    expect(text).toMatch(/^doctor: 0 failed, 0 warnings, 8 passed, 2 not checked · exit 0$/m);
  });

  it('--round-trip: one request acknowledged and answered through the receiver settles both', async () => {
    const { result, by, stderr } = await runDoctor({ roundTrip: true, timeout: '10s' });
    expect(result.exitCode).toBe(0);
    expect(result.checks.filter((c) => c.status !== 'pass').map((c) => [c.id, c.status])).toEqual([
      ['message-webhook', 'skip'],
    ]);
    expect(by('message-webhook')?.detail).toBe(
      'the embedded emulator forwards the messages of send only (run wires it to the receiver)',
    );
    expect(by('round-trip')?.detail).toMatch(
      /^tpa-[a-z0-9]+ acknowledged in .+ ms \(ack minus the round trip .+\), webhook through http:\/\/127\.0\.0\.1:\d+\/webhook after /,
    );
    expect(by('answer-webhook')?.detail).toContain('the async endpoint accepted a request');
    expect(stderr).toContain('round trip: one real request to get-droid-answer-async');
  });
});

describe('doctor against a remote target (the emulator on loopback)', () => {
  it('passes with the right token, measures the network round trip, and never prints the token', async () => {
    const { emulator, url } = await emulatorAt({ token: 'right-token-0123456789abcdef' });
    const { result, by, text, stderr } = await runDoctor(
      { baseUrl: url, droidId: emulator.droidId },
      { DROID_API_TOKEN: emulator.token, DROID_WEBHOOK_SECRET: SECRET, DROID_VERIFY_TOKEN: SECRET },
    );
    expect(result.exitCode).toBe(0);
    expect(by('network')).toMatchObject({ status: 'pass' });
    expect(by('network')?.detail).toContain('judge the ack limit on ack minus this (ackServer)');
    expect(result.network).toMatchObject({ samples: 7, method: 'tcp-connect' });
    expect(result.network!.rttMs).toBeGreaterThan(0);
    expect(result.network!.rttMs).toBeLessThan(1000);
    expect(text + stderr).not.toContain(emulator.token);
    expect(text + stderr).not.toContain(SECRET);
  });

  it('a wrong token: "token accepted" fails with the fix, exit 2, the token never printed', async () => {
    const { emulator, url } = await emulatorAt();
    const wrong = 'wrong-token-0123456789abcdefghij';
    const { result, by, text, stderr } = await runDoctor(
      { baseUrl: url, droidId: emulator.droidId },
      { DROID_API_TOKEN: wrong },
    );
    expect(result.exitCode).toBe(2);
    expect(by('token')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('HTTP 401 Unauthorized: Invalid API key'),
    });
    expect(by('token')?.fix).toContain('the token was refused: check DROID_API_TOKEN');
    expect(by('droid')?.status).toBe('skip');
    expect(text).toMatch(/✗ token accepted .*\n +fix: the token was refused/);
    expect(text + stderr).not.toContain(wrong);
    expect(emulator.stats().accepted).toBe(0);
  });

  it('no DROID_API_TOKEN: says so and how to set it', async () => {
    const { emulator, url } = await emulatorAt();
    const { result, by } = await runDoctor({ baseUrl: url, droidId: emulator.droidId });
    expect(result.exitCode).toBe(2);
    expect(by('token')).toMatchObject({ status: 'fail', detail: 'DROID_API_TOKEN is not set' });
    expect(by('token')?.fix).toContain('export DROID_API_TOKEN=');
  });

  it('another droid: "droid id" fails on the 403', async () => {
    const { emulator, url } = await emulatorAt();
    const { result, by } = await runDoctor({ baseUrl: url, droidId: 77 }, { DROID_API_TOKEN: emulator.token });
    expect(result.exitCode).toBe(2);
    expect(by('token')?.status).toBe('pass');
    expect(by('droid')).toMatchObject({ status: 'fail', detail: expect.stringContaining('HTTP 403') });
    expect(by('droid')?.fix).toContain('check --droid-id');
  });

  it('a closed port: "reachable" fails naming ECONNREFUSED and the fix; nothing else is checked', async () => {
    const port = await freePort();
    const { result, by, text } = await runDoctor(
      { baseUrl: `http://127.0.0.1:${port}`, droidId: 1 },
      { DROID_API_TOKEN: 'some-token-0123456789' },
    );
    expect(result.exitCode).toBe(2);
    expect(by('reachable')).toMatchObject({
      status: 'fail',
      detail: `TCP connect to 127.0.0.1:${port} failed (ECONNREFUSED)`,
    });
    expect(by('reachable')?.fix).toContain(`nothing listens on 127.0.0.1:${port}: check --base-url`);
    for (const id of ['api', 'token', 'droid', 'test-customer', 'answer-webhook', 'clock', 'network'] as const)
      expect(by(id)?.status, id).toBe('skip');
    expect(result.network).toBeUndefined();
    expect(text).toContain('doctor: 1 failed, 2 warnings, 0 passed, 7 not checked · exit 2');
  });

  it('an HTML page at the address: "answers JSON" fails, and nothing is POSTed to it', async () => {
    const posts: string[] = [];
    const url = await serve((app) => {
      app.get('/*', async (_req, reply) =>
        reply.type('text/html').send('<!doctype html><html><body>Log in</body></html>'),
      );
      app.post('/*', async (req) => void posts.push(req.url));
    });
    const { result, by } = await runDoctor({ baseUrl: url, droidId: 1 }, { DROID_API_TOKEN: 'some-token-0123456789' });
    expect(result.exitCode).toBe(2);
    expect(by('reachable')?.status).toBe('pass');
    expect(by('api')).toMatchObject({
      status: 'fail',
      detail: 'GET channels answered an HTML page (HTTP 200, text/html), not JSON',
    });
    expect(by('api')?.fix).toContain('--base-url must be the service root');
    expect(posts).toEqual([]);
  });

  it('a clock an hour ahead: a warning, not a failure', async () => {
    const url = await serve((app) => {
      app.addHook(
        'onSend',
        async (_req, reply) => void reply.header('date', new Date(Date.now() + 3_600_000).toUTCString()),
      );
      app.get('/api/droids/1/endpoint/channels', async () => ({ channels: [] }));
      app.post('/api/droids/1/endpoint/get-droid-answer-async', async (_req, reply) =>
        reply.code(400).send({ error: 'Bad Request', message: 'Invalid humanMessage format' }),
      );
    });
    const { result, by } = await runDoctor(
      { baseUrl: url, droidId: 1 },
      { DROID_API_TOKEN: 'some-token-0123456789', DROID_WEBHOOK_SECRET: SECRET, DROID_VERIFY_TOKEN: SECRET },
    );
    expect(by('clock')).toMatchObject({ status: 'warn' });
    expect(by('clock')?.detail).toMatch(/^the service's clock is (35\d\d|3600)(\.\d)? s ahead of this machine's/);
    expect(by('clock')?.fix).toContain('NTP');
    expect(result.exitCode).toBe(0);
  });

  it('secrets: unset is a warning, shorter than 8 a failure, shorter than 32 a warning; lengths only, never values', async () => {
    const { emulator, url } = await emulatorAt();
    const short = 'abc12';
    const medium = 'medium-secret-20chars';
    const { result, by, text } = await runDoctor(
      { baseUrl: url, droidId: emulator.droidId },
      { DROID_API_TOKEN: emulator.token, DROID_WEBHOOK_SECRET: short, DROID_INTENT_SECRET: medium },
    );
    expect(result.exitCode).toBe(2);
    expect(by('webhook-secret')).toMatchObject({
      status: 'fail',
      detail: 'DROID_WEBHOOK_SECRET is 5 characters long; droidcheck needs at least 8 (run and load refuse it)',
    });
    expect(by('verify-token')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('DROID_VERIFY_TOKEN is not set'),
    });
    expect(by('intent-secret')).toMatchObject({
      status: 'warn',
      detail: `DROID_INTENT_SECRET is ${medium.length} characters long; at least 32 are advised`,
    });
    expect(by('webhook-secret')?.fix).toContain('openssl rand -base64 32');
    expect(text).not.toContain(medium);
  });
});

describe('doctor --round-trip against a remote target', () => {
  async function remote(options: EmulatorOptions): Promise<{ emulator: Emulator; url: string; port: number }> {
    const port = await freePort();
    const { emulator, url } = await emulatorAt({ webhookUrl: `http://127.0.0.1:${port}/webhook`, ...options });
    return { emulator, url, port };
  }

  it('no answer webhook configured: the 400 names the setting, exit 2', async () => {
    const { emulator, url, port } = await remote({ webhookUrl: null });
    const { result, by } = await runDoctor(
      { baseUrl: url, droidId: emulator.droidId, roundTrip: true, receiverPort: port, timeout: '5s' },
      { DROID_API_TOKEN: emulator.token },
    );
    expect(result.exitCode).toBe(2);
    expect(by('answer-webhook')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('thirdPartyAnswerWebhook is not configured'),
    });
    expect(by('answer-webhook')?.fix).toBe(
      `set the answer webhook URL in Settings > Integrations, "When AI Answer Ready", to http://127.0.0.1:${port}/webhook`,
    );
    expect(by('round-trip')?.status).toBe('fail');
  });

  it('no test customer: "test customer" fails with the fix', async () => {
    const { emulator, url, port } = await remote({ testCustomerId: null });
    const { result, by } = await runDoctor(
      { baseUrl: url, droidId: emulator.droidId, roundTrip: true, receiverPort: port, timeout: '5s' },
      { DROID_API_TOKEN: emulator.token },
    );
    expect(result.exitCode).toBe(2);
    expect(by('test-customer')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('Droid Missing Test Customer Id'),
    });
    expect(by('test-customer')?.fix).toContain('give the droid a test customer');
  });

  it('the service appends another secret: the refused delivery fails the round trip at once', async () => {
    const { emulator, url, port } = await remote({ webhookSecret: 'the-services-secret-0123456789abcdefgh' });
    const t0 = performance.now();
    const { result, by } = await runDoctor(
      { baseUrl: url, droidId: emulator.droidId, roundTrip: true, receiverPort: port, timeout: '120s' },
      { DROID_API_TOKEN: emulator.token, DROID_WEBHOOK_SECRET: SECRET },
    );
    expect(result.exitCode).toBe(2);
    expect(by('round-trip')).toMatchObject({
      status: 'fail',
      detail: 'a delivery reached the receiver with a wrong ?secret= (answered 401)',
    });
    expect(by('answer-webhook')?.status).toBe('pass');
    // At once, not at the 120 s deadline (half of it: a bound a busy machine keeps, not a speed).
    expect(performance.now() - t0).toBeLessThan(60_000);
  });

  it('a webhook that never arrives: fails at the deadline naming the URL to configure and the debug page', async () => {
    const elsewhere = await freePort();
    const { emulator, url } = await emulatorAt({
      webhookUrl: `http://127.0.0.1:${elsewhere}/webhook`,
      delivery: { attempts: 1 },
    });
    const port = await freePort();
    const { result, by } = await runDoctor(
      { baseUrl: url, droidId: emulator.droidId, roundTrip: true, receiverPort: port, timeout: '1500ms' },
      { DROID_API_TOKEN: emulator.token },
    );
    expect(result.exitCode).toBe(2);
    expect(by('round-trip')?.detail).toMatch(
      /^acknowledged in .+, but no webhook for tpa-\w+ reached http:\/\/127\.0\.0\.1:\d+\/webhook within 1\.5 s$/,
    );
    expect(by('round-trip')?.fix).toContain(`${url}/droids/${emulator.droidId}/debug/webhooks`);
  });

  it('a remote service cannot post to a loopback receiver: says to put a tunnel in front, sends nothing', async () => {
    const receiver = createReceiver();
    const local = await receiver.listen();
    const dispatcher = new Agent();
    closers.push(async () => {
      await dispatcher.close();
      await receiver.close();
    });
    const client = new DroidClient({
      baseUrl: 'https://svc.example',
      droidId: 1,
      token: 'some-token-0123456789',
      dispatcher,
    });
    const rt = await roundTrip({
      client,
      receiver,
      webhookUrl: local,
      localUrl: local,
      baseUrl: 'https://svc.example',
      droidId: 1,
      timeoutMs: 1000,
      rttMs: undefined,
      clock: systemClock,
      log: () => undefined,
    });
    expect(rt.roundTrip).toMatchObject({
      status: 'fail',
      detail: `the service cannot reach ${local}: it is this machine's loopback address`,
    });
    expect(rt.roundTrip.fix).toContain('--public-url');
    expect(rt.settled).toEqual([]);
  });
});
