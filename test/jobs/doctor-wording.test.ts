/**
 * doctor and the run's preflight read the service's own words: to the content-less async probe
 * only 400 `Invalid humanMessage format` passes; any other 400 fails (exit 2) quoted as the
 * service wrote it and classified by meaning (answer webhook, test customer; English and Thai
 * wordings), an unknown 4xx warns and quotes it. Against a real loopback fake service
 * (test/helpers/settings-service.ts) that answers every async request with the wording under test.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { doctor, renderDoctorReport, type DoctorCheck } from '../../src/jobs/index.js';
import { refusalKind } from '../../src/jobs/doctor/checks.js';
import { freePort } from '../helpers/cli.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';
import {
  startSettingsService,
  type SettingsService,
  type SettingsServiceOptions,
} from '../helpers/settings-service.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function service(options: SettingsServiceOptions): Promise<SettingsService> {
  const s = await startSettingsService(options);
  closers.push(() => s.close());
  return s;
}

async function doctorOf(
  s: SettingsService,
): Promise<{ exitCode: number; text: string; by: (id: DoctorCheck['id']) => DoctorCheck | undefined }> {
  const env = { DROID_API_TOKEN: s.token };
  const { report, exitCode } = await doctor(resolveConfig('doctor', { baseUrl: s.url, droidId: s.droidId }, env), {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env,
  });
  return {
    exitCode,
    text: renderDoctorReport({ ...report, exitCode }),
    by: (id) => report.checks.find((c) => c.id === id),
  };
}

const bad = (message: string): SettingsServiceOptions => ({
  asyncRefusal: { status: 400, body: { error: 'Bad Request', message } },
});

const WEBHOOK_WORDINGS = [
  'thirdPartyAnswerWebhook is not configured. Please set up the webhook URL in Settings > Integrations before using async answer endpoint.',
  "Webhook URL for AI answers is not configured. Please set up the 'AI answer ready' webhook in the integration settings first.",
  'ยังไม่ได้ตั้งค่า Webhook สำหรับคำตอบ AI กรุณาตั้งค่าในหน้าการเชื่อมต่อก่อน',
  'ยังไม่ได้ตั้งค่าเว็บฮุคสำหรับคำตอบ AI',
];
const TEST_CUSTOMER_WORDINGS = [
  'Droid Missing Test Customer Id',
  'This droid has no test customer yet: pick one in its settings.',
  'ยังไม่ได้กำหนดลูกค้าทดสอบสำหรับดรอยด์นี้',
];

describe('the async probe, read by meaning', () => {
  it.each(WEBHOOK_WORDINGS)(
    'a missing answer webhook, worded "%s", fails with the service\'s words and the fix (exit 2)',
    async (message) => {
      const s = await service(bad(message));
      const { exitCode, by, text } = await doctorOf(s);
      expect(exitCode, text).toBe(2);
      expect(by('answer-webhook')).toMatchObject({
        status: 'fail',
        detail: `get-droid-answer-async: HTTP 400 Bad Request: ${message}`,
      });
      expect(by('answer-webhook')?.fix).toMatch(
        /^set the answer webhook URL in Settings > Integrations, "When AI Answer Ready"/,
      );
      expect(by('test-customer')?.status).toBe('skip');
      // The token line does not call a refusal "as intended".
      expect(by('token')?.detail).not.toContain('as intended');
      expect(s.stats.asyncRequests).toBe(1);
    },
  );

  it.each(TEST_CUSTOMER_WORDINGS)(
    'a missing test customer, worded "%s", fails the test customer check (exit 2)',
    async (message) => {
      const s = await service(bad(message));
      const { exitCode, by, text } = await doctorOf(s);
      expect(exitCode, text).toBe(2);
      expect(by('test-customer')).toMatchObject({
        status: 'fail',
        detail: `get-droid-answer-async: HTTP 400 Bad Request: ${message}`,
      });
      expect(by('test-customer')?.fix).toContain('give the droid a test customer');
      expect(by('answer-webhook')?.status).toBe('skip');
    },
  );

  it('another 400 is a configuration failure quoted as written, also when the body is plain text (exit 2)', async () => {
    const s = await service(bad('Droid is paused by its owner'));
    const json = await doctorOf(s);
    expect(json.exitCode).toBe(2);
    expect(json.by('async-settings')).toMatchObject({
      status: 'fail',
      detail: 'get-droid-answer-async: HTTP 400 Bad Request: Droid is paused by its owner',
    });
    expect(json.text).toMatch(
      /✗ async settings +get-droid-answer-async: HTTP 400 Bad Request: Droid is paused by its owner\n +fix: /,
    );

    const t = await service({ asyncRefusal: { status: 400, body: 'Webhook  not set up' } });
    const text = await doctorOf(t);
    expect(text.exitCode).toBe(2);
    expect(text.by('answer-webhook')).toMatchObject({
      status: 'fail',
      detail: 'get-droid-answer-async: HTTP 400: "Webhook not set up"',
    });
  });

  it('the documented "Invalid humanMessage format" passes (exit 0); an unknown 4xx warns and quotes it (exit 0)', async () => {
    const ok = await doctorOf(await service(bad('Invalid humanMessage format')));
    expect(ok.exitCode, ok.text).toBe(0);
    expect(ok.by('answer-webhook')?.status).toBe('skip');
    expect(ok.by('token')?.detail).toContain('Invalid humanMessage format, as intended');

    const odd = await doctorOf(
      await service({ asyncRefusal: { status: 418, body: { error: "I'm a teapot", message: 'Short and stout' } } }),
    );
    expect(odd.exitCode, odd.text).toBe(0);
    expect(odd.by('answer-webhook')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining("HTTP 418 I'm a teapot: Short and stout"),
    });
  });

  it('refusalKind: keywords, not sentences', () => {
    expect(refusalKind('Invalid humanMessage format')).toBe('invalid-message');
    expect(refusalKind('invalid human message format: content missing')).toBe('invalid-message');
    expect(refusalKind('Missing test-customer')).toBe('test-customer');
    expect(refusalKind('Please configure the answer_ready hook')).toBe('answer-webhook');
    expect(refusalKind('ตั้งค่าเว็บฮุกก่อน')).toBe('answer-webhook');
    expect(refusalKind('Quota exceeded')).toBe('other');
  });
});

describe('the preflight of run reads the same words', () => {
  it('a reworded missing webhook stops run before anything is sent, exit 2, quoting the service', async () => {
    const message =
      "Webhook URL for AI answers is not configured. Please set up the 'AI answer ready' webhook in the integration settings first.";
    const s = await service(bad(message));
    const res = await cli(
      [
        'run',
        'scenarios/support.yaml',
        '--base-url',
        s.url,
        '--droid-id',
        String(s.droidId),
        // A port the service could be told (a random one is refused before the preflight).
        '--receiver-port',
        String(await freePort()),
        '--reporter',
        'console',
      ],
      { env: { DROID_API_TOKEN: s.token } },
    );
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('DROIDCHECK_ERR_SETUP: preflight against');
    expect(res.stderr).toContain(`✗ answer webhook      get-droid-answer-async: HTTP 400 Bad Request: ${message}`);
    expect(res.stderr).not.toContain(s.token);
    // Stopped at the preflight: the service counted its one probe, nothing of the suite.
    expect(s.stats.asyncRequests).toBe(1);
  });
});

describe('doctor --round-trip watches the message webhook too', () => {
  const VERIFY = 'doctor-verify-token-0123456789abcdefghij';
  async function roundTripWith(
    messages: 'right' | 'wrong' | 'none',
    messageWebhookCheck = '1s',
  ): Promise<DoctorCheck | undefined> {
    const port = await freePort();
    const s = await service({
      deliver: {
        answerUrl: `http://127.0.0.1:${port}/webhook`,
        ...(messages !== 'none' && {
          messagesUrl: `http://127.0.0.1:${port}/messages`,
          verifyToken: messages === 'right' ? VERIFY : 'not-the-verify-token-0123456789abcdef',
        }),
      },
    });
    const env = { DROID_API_TOKEN: s.token, DROID_VERIFY_TOKEN: VERIFY };
    const { report: result } = await doctor(
      resolveConfig(
        'doctor',
        {
          baseUrl: s.url,
          droidId: s.droidId,
          roundTrip: true,
          receiverPort: port,
          timeout: '5s',
          messageWebhookCheck,
        },
        env,
      ),
      { stdout: new PassThrough(), stderr: new PassThrough(), env },
    );
    expect(result.checks.find((c) => c.id === 'round-trip')?.status).toBe('pass');
    return result.checks.find((c) => c.id === 'message-webhook');
  }

  it('a forwarded message of the test customer passes', async () => {
    expect(await roundTripWith('right')).toMatchObject({
      status: 'pass',
      detail: expect.stringMatching(
        /^a forwarded message of customer 5 \(type human\) reached the receiver [\d.]+ (ms|s) after the request$/,
      ),
    });
  });

  it('a forwarded message refused for its verify_token fails, naming the setting', async () => {
    expect(await roundTripWith('wrong')).toMatchObject({
      status: 'fail',
      detail: 'the receiver refused 1 forwarded message(s) for a wrong verify_token',
      fix: expect.stringContaining("set the service's Verify Token"),
    });
  });

  it('none within --message-webhook-check warns, naming /messages', async () => {
    const c = await roundTripWith('none');
    expect(c).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^no message webhook delivery within 1 s of the request/),
    });
    expect(c?.fix).toMatch(
      /^configure the Automation Panel's message webhook as http:\/\/127\.0\.0\.1:\d+\/messages with the verify token/,
    );
  });

  it('none set up: waits 2 s after the answer, not the whole --message-webhook-check (15 s)', async () => {
    const t0 = performance.now();
    const c = await roundTripWith('none', '15s');
    expect(c).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(
        /^no message webhook delivery within [\d.]+ m?s of the request \(2 s after its answer\)/,
      ),
    });
    // The answer comes within milliseconds here: the doctor is done long before 15 s.
    expect(performance.now() - t0).toBeLessThan(12_000);
  });
});
