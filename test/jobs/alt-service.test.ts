/**
 * Against a second implementation of the specification that made other choices where the spec
 * says "not shown", and is another shop (its own catalogue, intent names and wording:
 * test/helpers/alt-service.ts): `droidcheck run` of the shipped scenarios not tagged emulator-only
 * or demo-shop (the README's real-service command, word for word), of the starter `init` writes,
 * plus a small fixed suite of every endpoint, reports
 * no contract violation, every answer matched, the sync client switches to the string form once
 * (and says so once), and `doctor` passes; with a wrong token, a closed port or no answer
 * webhook configured, `doctor` exits 2 naming the fix. Also what the implementation sends is
 * taken by droidcheck's own receiver: forwarded messages and intent webhooks as documented.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { DroidClient } from '../../src/client/index.js';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { parseReportDocument, type ReportDocument } from '../../src/report/index.js';
import { filterScenarios, loadSuites, type Suite } from '../../src/scenario/index.js';
import { STARTER_SUITE } from '../../src/scenario/index.js';
import { startAltService, type AltService, type AltServiceOptions } from '../helpers/alt-service.js';
import { REPO, freePort, passedExitCode } from '../helpers/cli.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';

const SECRET = 'alt-webhook-secret-0123456789abcdefghijkl';
const VERIFY = 'alt-verify-token-0123456789abcdefghijklm';
const INTENT = 'alt-intent-secret-0123456789abcdefghijklm';

/** Every endpoint once, written for a service whose shapes droidcheck does not know. */
const OWN_SUITE = `
suite: Alt fixed
scenarios:
  - name: every read endpoint answers
    modes: [async]
    steps:
      - say: Hello there!
        capture: { customer: customerId }
      - call: channels
      - call: customer
        customerId: "{{ vars.customer }}"
        expect: { botEnabled: true }
      - call: messages
        customerId: "{{ vars.customer }}"
      - call: conversations
        customerId: "{{ vars.customer }}"
        expect: { total: { gte: 0 } }
      - call: imageAlt
        imageUrl: https://cdn.example.com/img/linen-trousers.png
  - name: send is stored and the bot answers it later
    modes: [async]
    steps:
      - say: Hi
        capture: { customer: customerId }
      - call: send
        customerId: "{{ vars.customer }}"
        humanMessage: Do you have linen trousers?
      - call: conversations
        customerId: "{{ vars.customer }}"
        expect: { conversations.0.content: { present: true } }
      - call: ask
        customerId: "{{ vars.customer }}"
        prompt: 'Respond ONLY with JSON: { "status": "positive" | "negative" | "neutral", "reason": "why" }'
        # JSON text, with this droid's own keys: not the template's (the spec promises no keys).
        expect: { answer: { json: { sentiment: { oneOf: [positive, negative, neutral] }, status: { absent: true } } } }
  - name: a purchase in both modes (this shop's catalogue and intent names)
    humanMessage: I want to buy 2 flannel shirts
    expect:
      intents: { includes: buy }
      shoppingCart.products: { length: 1 }
      shoppingCart.grandTotal: { money: "83.00 USD" }
      answer: { contains: "2 x Flannel shirt" }
`;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function alt(options: AltServiceOptions = {}): Promise<AltService> {
  const service = await startAltService(options);
  closers.push(() => service.close());
  return service;
}

/** What the README's real-service command leaves out: emulator-only endpoints and behaviour, the demo shop's data. */
const NOT_PORTABLE = ['emulator-only', 'demo-shop'];

/** The names of every scenario but those tagged emulator-only or demo-shop (what the README's command keeps). */
function portableNames(suites: readonly Suite[]): string[] {
  return suites.flatMap((s) =>
    s.scenarios.filter((sc) => !sc.tags.some((t) => NOT_PORTABLE.includes(t))).map((sc) => `${sc.suite} ${sc.name}`),
  );
}

describe("the alternative implementation through droidcheck's client and receiver", () => {
  let receiver: Receiver;
  let client: DroidClient;
  let service: AltService;
  let dispatcher: Agent;
  const switches: string[] = [];

  beforeAll(async () => {
    receiver = createReceiver({ secret: SECRET, verifyToken: VERIFY, intentSecret: INTENT });
    await receiver.listen();
    const urls = receiver.urls()!;
    service = await startAltService({
      answerWebhook: { url: urls.answer, secret: SECRET },
      messageWebhook: { url: urls.messages, verifyToken: VERIFY },
      intentWebhook: { url: urls.intents, secret: INTENT },
    });
    dispatcher = new Agent();
    client = new DroidClient({
      baseUrl: service.url,
      droidId: service.droidId,
      token: service.token,
      dispatcher,
      onSyncMessageForm: (form) => switches.push(form),
    });
  });
  afterAll(async () => {
    await service.close();
    await dispatcher.close();
    await receiver.close();
  });

  it('its "not shown" choices are unverified shapes, never violations', async () => {
    for (const res of [
      await client.channels(),
      await client.customer(5),
      await client.messages(5),
      await client.imageAlt('https://cdn.example.com/a.jpg'),
      await client.setBot(5, true),
    ]) {
      expect(res.contract.violations).toEqual([]);
      expect(res.contract.unverified.length).toBeGreaterThan(0);
    }
    expect((await client.conversations(5)).contract.violations).toEqual([]);
  });

  it('the sync client finds the string form once and keeps it', async () => {
    const first = await client.getDroidAnswer({ humanMessage: 'Hello there!', chatHistory: [] });
    expect(first.contract.violations).toEqual([]);
    await client.getDroidAnswer({ humanMessage: 'How much is the leather belt?', chatHistory: [] });
    expect(switches).toEqual(['string']);
    expect(client.syncMessageForm).toBe('string');
    expect(service.stats.syncObjectRefused).toBe(1);
    expect(service.stats.syncAnswered).toBe(2);
  });

  it('forwards send and the bot reply as MessageForwarding with ?verify_token=, and intents with the body secret', async () => {
    const after = performance.now();
    await client.send({ customerId: 9001, humanMessage: "I'd like 2 shirts" });
    const human = await receiver.waitForMessage(
      { customerId: 9001, after, match: { type: 'human' } },
      performance.now() + 5000,
    );
    const reply = await receiver.waitForMessage(
      { customerId: 9001, after, match: { type: 'ai' } },
      performance.now() + 5000,
    );
    expect(human).toMatchObject({
      kind: 'message',
      payload: { content: { type: 'text', value: "I'd like 2 shirts" } },
    });
    expect(reply.kind).toBe('message');
    if (reply.kind !== 'message' || human.kind !== 'message') return;
    expect(human.contract.violations).toEqual([]);
    expect(reply.contract.violations).toEqual([]);
    expect(String(reply.payload.content.value)).toContain('2 x Flannel shirt');
    const intent = await receiver.waitForIntent({ after, intent: 'buy', customerId: 9001 }, performance.now() + 5000);
    expect(intent.kind).toBe('intent');
    if (intent.kind !== 'intent') return;
    expect(intent.contract.violations).toEqual([]);
    expect(intent.payload.shopping_cart.products[0]).toMatchObject({ count: 2, name: 'Flannel shirt' });
    expect(receiver.inboundStats().messages.badSecret + receiver.inboundStats().intents.badSecret).toBe(0);
  });
});

describe('droidcheck run of the shipped portable scenarios, and doctor, against it', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-alt-'));
    await writeFile(join(dir, 'alt-fixed.yaml'), OWN_SUITE);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const env = (service: AltService): Record<string, string> => ({
    DROID_API_TOKEN: service.token,
    DROID_WEBHOOK_SECRET: SECRET,
    DROID_VERIFY_TOKEN: VERIFY,
    DROID_INTENT_SECRET: INTENT,
  });

  it('run: no contract violation, every answer matched, the string form found once, exit 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const service = await alt({
      answerWebhook: { url: `${base}/webhook`, secret: SECRET },
      messageWebhook: { url: `${base}/messages`, verifyToken: VERIFY },
      intentWebhook: { url: `${base}/intents`, secret: INTENT },
    });
    const paths = [join(REPO, 'scenarios'), dir];
    const suites = await loadSuites(paths);
    const names = portableNames(suites);
    expect(filterScenarios(suites, { excludeTags: NOT_PORTABLE }).flatMap((s) => s.scenarios).length).toBe(
      names.length,
    );
    const out = join(dir, 'run');
    const res = await cli(
      [
        'run',
        ...paths,
        '--exclude-tag',
        'emulator-only',
        '--exclude-tag',
        'demo-shop',
        '--base-url',
        service.url,
        '--droid-id',
        String(service.droidId),
        '--receiver-port',
        String(port),
        '--reporter',
        'json',
        '--reporter',
        'console',
        '-o',
        out,
        '--timeout',
        '20s',
      ],
      { env: env(service), maxMs: 120_000 },
    );
    const report: ReportDocument = parseReportDocument(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    const violations = report.scenarios.flatMap((s) =>
      s.contractViolations.map((v) => `${s.name} [${s.mode}] ${v.endpoint} ${v.path}: ${v.message}`),
    );
    expect(violations).toEqual([]);
    const failed = report.scenarios
      .filter((s) => !s.passed)
      .map(
        (s) => `${s.name} [${s.mode}] ${s.outcome}: ${s.error?.message ?? s.failures.map((f) => f.message).join('; ')}`,
      );
    expect(failed).toEqual([]);
    expect(new Set(report.scenarios.map((s) => `${s.suite} ${s.name}`))).toEqual(new Set(names));
    // Every answer the service delivered was matched to its request; second copies are duplicates
    // (the last one may land after the run closed its receiver: then it is not counted at all).
    expect(report.receiver).toMatchObject({
      matched: service.stats.answersPosted,
      orphans: 0,
      badSecret: 0,
      malformed: 0,
    });
    expect(service.stats.answersPosted).toBeGreaterThan(5);
    expect(report.receiver.duplicates).toBeGreaterThan(0);
    expect(report.receiver.duplicates + report.receiver.late).toBeLessThanOrEqual(service.stats.duplicatesPosted);
    // The sync form: refused as an object at most once per request in flight, then strings only; said once.
    expect(res.stderr.match(/sending humanMessage as a string from now on/g)).toHaveLength(1);
    // The shipped send steps that wait for the reply are named once, with where the message webhook must point.
    expect(res.stderr).toMatch(
      new RegExp(
        `droidcheck: \\d+ scenario\\(s\\) wait for the bot's reply \\(waitForReply, noReplyWithin\\): the service's message webhook must point at ${base}/messages, with DROID_VERIFY_TOKEN`,
      ),
    );
    expect(service.stats.syncObjectRefused).toBeGreaterThanOrEqual(1);
    expect(service.stats.syncObjectRefused).toBeLessThanOrEqual(8);
    // Its own choices are notes (one per endpoint and kind at most), never findings.
    const noted = (report.notes ?? []).map((n) => `${n.kind} ${n.endpoint}`);
    expect(noted).toEqual([...new Set(noted)]);
    expect(noted).toEqual(
      expect.arrayContaining([
        'unverified-shape customer',
        'unverified-shape send',
        'unverified-shape channels',
        'unverified-shape get-image-alt',
        'unverified-shape get-droid-answer',
      ]),
    );
    expect(report.network).toMatchObject({ method: 'tcp-connect', samples: 7 });
    expect(report.latency.ackServer.count).toBe(report.latency.ack.count);
    expect(res.stdout + res.stderr).not.toContain(service.token);
    expect(res.code, res.stderr).toBe(0);
  });

  it('doctor --round-trip passes: every check ✓', async () => {
    const port = await freePort();
    const service = await alt({ answerWebhook: { url: `http://127.0.0.1:${port}/webhook`, secret: SECRET } });
    const res = await cli(
      [
        'doctor',
        '--base-url',
        service.url,
        '--droid-id',
        String(service.droidId),
        '--round-trip',
        '--receiver-port',
        String(port),
        '--timeout',
        '10s',
        '--message-webhook-check',
        '1s',
      ],
      { env: env(service) },
    );
    expect(res.code, res.stdout + res.stderr).toBe(0);
    const marks = res.stdout.split('\n').filter((l) => /^ {2}[✓!✗–] /.test(l));
    expect(marks.length).toBe(13);
    // This implementation forwards the messages of send only (not the async endpoint's test
    // conversation), so the round trip's message-webhook watch sees nothing: a warning, not a failure.
    expect(marks.filter((l) => !l.startsWith('  ✓'))).toEqual([
      expect.stringMatching(/^ {2}! message webhook +no message webhook delivery within 1 s of the request/),
    ]);
    expect(res.stdout).not.toContain(service.token);
  });

  it('doctor: a wrong token, a closed port, no answer webhook configured: exit 2, naming the fix', async () => {
    const service = await alt();
    const wrong = await cli(['doctor', '--base-url', service.url, '--droid-id', String(service.droidId)], {
      env: { ...env(service), DROID_API_TOKEN: 'not-the-token-0123456789abcdef' },
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toMatch(
      /✗ token accepted .*HTTP 401 Unauthorized: Invalid API key\n +fix: the token was refused: check DROID_API_TOKEN/,
    );
    expect(wrong.stdout).not.toContain('not-the-token-0123456789abcdef');

    const closed = await freePort();
    const refused = await cli(['doctor', '--base-url', `http://127.0.0.1:${closed}`, '--droid-id', '42'], {
      env: env(service),
    });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(
      new RegExp(
        `✗ reachable .*ECONNREFUSED.*\\n +fix: nothing listens on 127\\.0\\.0\\.1:${closed}: check --base-url`,
      ),
    );

    // No --round-trip: this service checks its settings before the message, so the cheap probe tells.
    const noWebhook = await cli(['doctor', '--base-url', service.url, '--droid-id', String(service.droidId)], {
      env: env(service),
    });
    expect(noWebhook.code).toBe(2);
    expect(noWebhook.stdout).toMatch(
      /✗ answer webhook +get-droid-answer-async: HTTP 400 Bad Request: thirdPartyAnswerWebhook is not configured\. Please set up the webhook URL in Settings > Integrations before using async answer endpoint\.\n +fix: set the answer webhook URL in Settings > Integrations, "When AI Answer Ready"/,
    );
    expect(service.stats.asyncAccepted).toBe(0);

    // The same misconfiguration stops `run` before the suite (the preflight), exit 2. A fixed
    // receiver port: with a random one the run is refused before the preflight (pre-send.ts).
    const run = await cli(
      [
        'run',
        join(dir, 'alt-fixed.yaml'),
        '--base-url',
        service.url,
        '--droid-id',
        String(service.droidId),
        '--receiver-port',
        String(await freePort()),
        '--reporter',
        'console',
        '-o',
        join(dir, 'nothing'),
      ],
      { env: env(service) },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('DROIDCHECK_ERR_SETUP: preflight against');
    expect(run.stderr).toContain('✗ answer webhook');
    expect(service.stats.syncAnswered + service.stats.asyncAccepted).toBe(0);
  });
});

/**
 * The README's command for a real service, word for word from README.md (only the values of
 * --base-url, --droid-id, --receiver-port and --public-url are this test's), plus `-o` so the
 * reports land in a temporary folder.
 */
async function readmeRealServiceArgs(values: Record<string, string>): Promise<string[]> {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf('npx droidcheck run scenarios/');
  expect(start).toBeGreaterThan(0);
  const lines: string[] = [];
  for (const line of readme.slice(start).split('\n')) {
    lines.push(line.replace(/\\$/, ''));
    if (!line.endsWith('\\')) break;
  }
  const args = lines.join(' ').trim().split(/\s+/).slice(2); // without "npx droidcheck"
  for (const [flag, value] of Object.entries(values)) {
    const at = args.indexOf(flag);
    expect(at, `the README's command has ${flag}`).toBeGreaterThan(0);
    args[at + 1] = value;
  }
  return args;
}

describe('the first hour against another droid (other catalogue, intent names and wording)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-firsthour-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const env = (service: AltService): Record<string, string> => ({
    DROID_API_TOKEN: service.token,
    DROID_WEBHOOK_SECRET: SECRET,
    DROID_VERIFY_TOKEN: VERIFY,
  });
  async function wired(): Promise<{ service: AltService; values: Record<string, string>; port: number }> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const service = await alt({
      answerWebhook: { url: `${base}/webhook`, secret: SECRET },
      messageWebhook: { url: `${base}/messages`, verifyToken: VERIFY },
    });
    return {
      service,
      port,
      values: {
        '--base-url': service.url,
        '--droid-id': String(service.droidId),
        '--receiver-port': String(port),
        '--public-url': `${base}/webhook`,
      },
    };
  }

  it("the README's real-service command passes (exit 0); without --exclude-tag demo-shop the demo shop's assertions fail (exit 1)", async () => {
    const { service, values } = await wired();
    const args = await readmeRealServiceArgs(values);
    expect(args).toEqual(expect.arrayContaining(['run', 'scenarios/', '--exclude-tag', 'emulator-only', 'demo-shop']));
    const res = await cli([...args, '-o', join(dir, 'readme')], { env: env(service), maxMs: 120_000 });
    expect(
      res.code,
      res.stdout
        .split('\n')
        .filter((l) => l.includes('✗') || l.includes(': expected'))
        .join('\n') + res.stderr,
    ).toBe(0);
    // One line per suite (the console's default): the portable suite ran in both modes and passed.
    expect(res.stdout).toMatch(/^ {2}✓ Portable checks +\d+ passed {2}\(sync \d+, async \d+\)$/m);
    expect(service.stats.answersPosted).toBeGreaterThan(5);

    // What the README used to say: only emulator-only left out. The demo shop's catalogue,
    // intent names and wording are not this droid's, so those expectations fail.
    const second = await wired();
    const old = (await readmeRealServiceArgs(second.values)).filter(
      (a, i, all) => !(a === 'demo-shop' || (a === '--exclude-tag' && all[i + 1] === 'demo-shop')),
    );
    const failed = await cli([...old, '-o', join(dir, 'old')], { env: env(second.service), maxMs: 120_000 });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('intents: expected to include "purchase"');
  });

  it('init, then run of the starter: exit 0 against this droid and against the embedded emulator; load of it: exit 0', async () => {
    const project = join(dir, 'project');
    const init = await cli(['init', project]);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('wrote scenarios/starter.yaml');
    expect(init.stdout).toContain('wrote scenarios/emulator-profile.yaml');
    // The demo shop is in sight: its catalogue, prices and intent names.
    const profile = await readFile(join(project, 'scenarios', 'emulator-profile.yaml'), 'utf8');
    expect(profile).toMatch(/^# The demo shop droidcheck's embedded emulator answers from/);
    expect(profile).toContain('Oxford shirt');
    expect(profile).toContain('purchase');
    expect(await readFile(join(project, 'scenarios', 'starter.yaml'), 'utf8')).toBe(STARTER_SUITE);

    const { service, values } = await wired();
    const remote = await cli(['run', ...Object.entries(values).flat(), '-o', join(project, 'alt-reports')], {
      cwd: project,
      env: env(service),
      maxMs: 120_000,
    });
    expect(remote.code, remote.stdout + remote.stderr).toBe(0);
    expect(remote.stdout).toMatch(/\d+ passed, 0 failed/);
    // The policy init wrote is the demo shop's: left out against this droid, and said so.
    expect(remote.stderr).toContain("droidcheck.policy.yaml describes the embedded emulator's demo shop");
    expect(remote.stdout).not.toContain('Shop policy');
    expect(service.stats.asyncAccepted).toBeGreaterThanOrEqual(5);
    // Both modes ran every plain scenario, against a droid whose greeting raises no intent and
    // whose ask answers JSON of its own keys (test/helpers/alt-service.ts).
    const starterReport = parseReportDocument(
      JSON.parse(await readFile(join(project, 'alt-reports', 'report.json'), 'utf8')),
    );
    const ran = new Set(starterReport.scenarios.map((s) => `${s.name} [${s.mode}]`));
    for (const mode of ['sync', 'async']) expect(ran).toContain(`answers a greeting with text and intents [${mode}]`);
    expect(ran).toContain('reads the test customer and asks the AI about them, as JSON [async]');
    expect(service.stats.syncAnswered).toBeGreaterThanOrEqual(5);

    const local = await cli(['run'], { cwd: project, maxMs: 120_000 });
    expect(local.code, local.stdout + local.stderr).toBe(0);
    // ... and checked against the embedded emulator, whose shop it describes.
    expect(local.stdout).toMatch(/Shop policy {2}\d+ answers checked against droidcheck\.policy\.yaml · 0 violations/);

    // The folder init wrote, its config file included, must serve `load` as it serves `run`
    // (the file holds only options every command takes; async exercises the webhook path).
    const load = await cli(['load', 'scenarios/', '--rate', '5', '-d', '5s', '--mode', 'async'], {
      cwd: project,
      maxMs: 120_000,
    });
    expect(load.code, load.stdout + load.stderr).toBe(passedExitCode(join(project, 'reports')));
  });

  it("the starter's commented examples of shop-specific expectations, uncommented, pass against the emulator", async () => {
    const uncommented = STARTER_SUITE.replace(/^#( {2}- name:| {4}| {6})/gm, '$1');
    expect(uncommented).toContain('\n  - name: buys two Oxford shirts\n');
    expect(uncommented).toContain("\n  - name: the AI's sentiment JSON has the keys the prompt asks for\n");
    const file = join(dir, 'example.yaml');
    await writeFile(file, uncommented);
    const res = await cli(
      ['run', file, '--tag', 'my-shop', '--reporter', 'console', '-o', join(dir, 'example-reports')],
      { maxMs: 120_000 },
    );
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toMatch(/3 passed, 0 failed/);
  });
});
