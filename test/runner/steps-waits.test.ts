/**
 * `send` steps that wait for the bot's reply through the message-forwarding webhook, their
 * absence (`noReplyWithin`), and intent-webhook expectations: a real emulator and a real
 * receiver on 127.0.0.1 port 0, wired by URL, verify token and intent secret. Absences are
 * proven with the receiver's injected clock (the window ends when the test moves the clock),
 * never by sleeping.
 */
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { DroidClient } from '../../src/client/index.js';
import { systemClock, type Clock } from '../../src/clock.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { LatencyRecorder } from '../../src/metrics/index.js';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { executeRequest, type ExecuteContext, type RequestRecord } from '../../src/runner/index.js';
import { parseSuite, type Scenario } from '../../src/scenario/index.js';
import { testClock, type TestClock } from '../receiver/test-clock.js';

const SECRET = 'waits-secret-0123456789abcdef0123456789';
const TOKEN = 'waits-verify-0123456789abcdef0123456789';
const INTENT_SECRET = 'waits-intent-0123456789abcdef012345678';

interface Rig {
  emulator: Emulator;
  receiver: Receiver;
  client: DroidClient;
  ctx: ExecuteContext & { latency: LatencyRecorder };
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

/** Emulator + receiver; `wire: false` leaves the message webhook unconfigured, `token` sets the emulator's verify token. */
async function rig(opts: { clock?: Clock; answerDelayMs?: number; wire?: boolean; token?: string } = {}): Promise<Rig> {
  const clock = opts.clock ?? systemClock;
  const receiver = createReceiver({ secret: SECRET, verifyToken: TOKEN, intentSecret: INTENT_SECRET, clock });
  open.push(receiver);
  await receiver.listen();
  const urls = receiver.urls()!;
  const emulator = await createEmulator({
    webhookUrl: urls.answer,
    webhookSecret: SECRET,
    answerDelayMs: opts.answerDelayMs ?? 0,
    ...(opts.wire !== false && { messageWebhookUrl: urls.messages, verifyToken: opts.token ?? TOKEN }),
    intentWebhook: { url: urls.intents, secret: INTENT_SECRET },
  });
  open.push(emulator);
  const dispatcher = new Agent();
  open.push(dispatcher);
  const client = new DroidClient({
    baseUrl: await emulator.listen(),
    droidId: emulator.droidId,
    token: emulator.token,
    dispatcher,
  });
  return {
    emulator,
    receiver,
    client,
    ctx: { client, receiver, clock, timeoutMs: 10_000, latency: new LatencyRecorder() },
  };
}

const SUITE = parseSuite(
  `suite: Waits
scenarios:
  - name: reply
    steps:
      - call: send
        customerId: 2003
        humanMessage: I'd like 2 Oxford shirts
        waitForReply: 10s
        expect:
          success: true
          reply.type: ai
          reply.customerId: 2003
          reply.content.value: { icontains: oxford shirt }
        capture: { replyMid: reply.mid }
        intentWebhook:
          within: 10s
          expect:
            intent: purchase
            customer_id: "2003"
            mid: "{{ vars.replyMid }}"
            shopping_cart.products.0.count: 2
  - name: wrong intent expectations
    steps:
      - call: send
        customerId: 2003
        humanMessage: I'd like 2 Oxford shirts
        waitForReply: 10s
        intentWebhook: { within: 10s, expect: { intent: purchase, shopping_cart.products.0.count: 3 } }
  - name: an intent that never comes
    modes: [sync]
    steps:
      - say: I'd like 2 Oxford shirts
        intentWebhook: { within: 300ms, expect: { intent: complaint } }
  - name: say with an intent webhook
    chatHistory:
      - human: Hi, do you sell Oxford shirts?
      - ai: Yes, the Oxford shirt is 1,290.00 THB.
    steps:
      - say: I'll take 2
        expect: { intents: { includes: purchase } }
        intentWebhook: { within: 10s, expect: { intent: purchase, shopping_cart.products.0.count: 2, shopping_cart.products.0.name: Oxford shirt } }
  - name: takeover
    steps:
      - call: setBot
        customerId: 2003
        botEnabled: false
      - call: send
        customerId: 2003
        humanMessage: Can a person help me?
        noReplyWithin: 5s
        expect: { reply: null, success: true }
  - name: bot on
    steps:
      - call: send
        customerId: 2003
        humanMessage: Can a person help me?
        noReplyWithin: 30s
  - name: slow or missing reply
    steps:
      - call: send
        customerId: 2003
        humanMessage: Hello
        waitForReply: { within: 2s, from: [ai, admin] }
        expect: { reply.type: ai, success: true }
`,
  'waits.yaml',
);
const scenario = (name: string): Scenario => SUITE.scenarios.find((s) => s.name === name)!;
const run = (name: string, ctx: ExecuteContext, mode: 'sync' | 'async' = 'sync'): Promise<RequestRecord> =>
  executeRequest({ seq: 0, scenario: scenario(name), mode }, ctx);

/** Moves `clock` past a wait's window once `ready()` holds, then lets the receiver fire its deadlines. */
async function endWindow(clock: TestClock, receiver: Receiver, ready: () => boolean, ms: number): Promise<void> {
  await expect.poll(ready, { interval: 5 }).toBe(true);
  clock.advance(ms);
  receiver.housekeep();
}

describe('send with waitForReply', () => {
  it('gets the reply from the message webhook, records reply latency, and checks the intent webhook it fired', async () => {
    const { ctx, receiver } = await rig({ answerDelayMs: 40 });
    const record = await run('reply', ctx);
    expect(record.failures).toEqual([]);
    expect(record.contractViolations).toEqual([]);
    expect(record.passed).toBe(true);
    const step = record.steps![0]!;
    const body = step.body as {
      success: boolean;
      mid: string;
      reply: { mid: string; type: string; content: { value: string } };
    };
    expect(Object.keys(body)).toEqual(['success', 'mid', 'reply']);
    expect(body.reply).toMatchObject({ type: 'ai', customerId: 2003, content: { type: 'text' } });
    expect(body.reply.mid).not.toBe(body.mid);
    expect(step.captured).toEqual({ replyMid: body.reply.mid });
    // The step's latency runs to the reply's arrival (after the 40 ms answer delay); metric `reply`.
    expect(step.latencyMs).toBeGreaterThanOrEqual(40);
    expect(ctx.latency.summary('reply').count).toBe(1);
    // The forwarded copy of the human message is there too, and was not taken for the reply.
    expect(receiver.messagesOf(2003).map((m) => [m.payload.type, m.claimed])).toEqual([
      ['human', false],
      ['ai', true],
    ]);
    expect(receiver.inboundStats().intents.claimed).toBe(1);
  });

  it('intent webhook expectations fail into the step, with their own path and message', async () => {
    const { ctx } = await rig();
    const record = await run('wrong intent expectations', ctx);
    expect(record.passed).toBe(false);
    expect(record.outcome).toBe('answered');
    expect(record.failures).toEqual([
      expect.objectContaining({
        path: 'intentWebhook.shopping_cart.products.0.count',
        expected: 3,
        actual: 2,
        location: { file: 'waits.yaml', line: 28, col: 67 },
        message: expect.stringMatching(
          /^step 1 \(send\): intent webhook: shopping_cart\.products\.0\.count: expected to equal 3, got 2$/,
        ),
      }),
    ]);
  });

  it('an intent webhook that never comes fails after its window, naming the intent', async () => {
    const { ctx } = await rig();
    const record = await run('an intent that never comes', ctx);
    expect(record.passed).toBe(false);
    expect(record.failures.map((f) => [f.path, f.message])).toEqual([
      ['intentWebhook', 'step 1 (say): no intent webhook for "complaint" within 300 ms of the answer'],
    ]);
  });

  it.each(['sync', 'async'] as const)(
    'a say step expects the intent webhook of its answer (%s), preferring its own among concurrent ones',
    async (mode) => {
      const { ctx, receiver } = await rig();
      // Plain answers that fire the same intent with another count, at the same time.
      const noise = Array.from({ length: 6 }, (_, i) =>
        executeRequest(
          {
            seq: i + 1,
            scenario: {
              ...scenario('say with an intent webhook'),
              name: `noise ${i}`,
              steps: undefined,
              humanMessage: 'I want 1 Oxford shirt',
            },
            mode,
          },
          ctx,
        ),
      );
      const [record] = await Promise.all([run('say with an intent webhook', ctx, mode), ...noise]);
      expect(record.failures).toEqual([]);
      expect(record.passed).toBe(true);
      expect(receiver.inboundStats().intents.accepted).toBeGreaterThanOrEqual(7);
    },
  );

  it('no reply in the window: one failure that says the webhook works and asks about the bot; reply.* left unjudged', async () => {
    const clock = testClock();
    const { ctx, receiver } = await rig({ clock, answerDelayMs: 60_000 });
    const pending = run('slow or missing reply', ctx);
    await endWindow(clock, receiver, () => receiver.messagesOf(2003).length === 1, 2_000);
    const record = await pending;
    expect(record.passed).toBe(false);
    expect(record.failures).toEqual([
      expect.objectContaining({
        path: 'reply',
        matcher: 'waitForReply',
        location: { file: 'waits.yaml', line: 63, col: 9 },
        message:
          'step 1 (send): no reply (type ai|admin) within 2 s; messages of customer 2003 do reach the receiver, so the message webhook works: is the bot on for this customer?',
      }),
    ]);
    expect(record.steps![0]!.body).toMatchObject({ success: true, reply: null });
    expect(ctx.latency.summary('reply').count).toBe(0);
  });

  it('without a message webhook, the timeout says what to configure', async () => {
    const clock = testClock();
    const { ctx, receiver, emulator } = await rig({ clock, wire: false });
    const pending = run('slow or missing reply', ctx);
    await endWindow(clock, receiver, () => emulator.stats().messagesStored >= 1, 2_000);
    const message = (await pending).failures[0]?.message ?? '';
    expect(message).toMatch(
      /^step 1 \(send\): no message webhook delivery in 2 s, not even the copy of customer 2003's own message: configure the Automation Panel's message webhook as /,
    );
    expect(message).toContain(`the receiver's /messages URL (here ${receiver.urls()!.messages}`);
    expect(message).toContain('with the verify token (the value of DROID_VERIFY_TOKEN)');
    expect(message).not.toContain(TOKEN);
  });

  it('without a message webhook, a 180 s wait ends after the 15 s check, and every later reply wait of the run fails at once', async () => {
    const clock = testClock();
    const { ctx, receiver, emulator } = await rig({ clock, wire: false });
    ctx.webhooks = { answer: 'https://tunnel.example/webhook', messages: 'https://tunnel.example/messages' };
    const first = { ...scenario('slow or missing reply'), name: 'long wait' };
    first.steps = first.steps!.map((st) =>
      st.kind === 'call' ? { ...st, waitForReply: { ...st.waitForReply!, withinMs: 180_000 } } : st,
    );
    const pending = executeRequest({ seq: 0, scenario: first, mode: 'sync' }, ctx);
    await expect.poll(() => emulator.stats().messagesStored, { interval: 5 }).toBeGreaterThanOrEqual(1);
    clock.advance(14_999);
    receiver.housekeep();
    let settled = false;
    void pending.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    clock.advance(1);
    receiver.housekeep();
    const record = await pending;
    expect(record.failures.map((f) => f.message)).toEqual([
      "step 1 (send): no message webhook delivery in 15 s, not even the copy of customer 2003's own message: configure the Automation Panel's message webhook as https://tunnel.example/messages with the verify token (the value of DROID_VERIFY_TOKEN); until then every step that waits for the bot's reply fails at once",
    ]);
    // The next reply waits (and a noReplyWithin) end without the clock moving at all.
    const later = await Promise.all([run('slow or missing reply', ctx), run('bot on', ctx)]);
    expect(later[0]!.failures[0]?.message).toMatch(/^step 1 \(send\): no message webhook delivery in 15 s/);
    expect(later[1]!.failures[0]?.message).toMatch(
      /^step 1 \(send\): cannot show that no reply came: no message webhook delivery in 15 s/,
    );
    expect(emulator.stats().messagesStored).toBeGreaterThanOrEqual(3);
  });

  it('with --message-webhook-check 1s and forwarding wired, the echo settles the check and the reply is waited for past it', async () => {
    const clock = testClock();
    const { ctx, receiver } = await rig({ clock, answerDelayMs: 1_500 });
    ctx.messageWebhookCheckMs = 1_000;
    const long = { ...scenario('slow or missing reply'), name: 'slow reply' };
    long.steps = long.steps!.map((st) =>
      st.kind === 'call' ? { ...st, waitForReply: { ...st.waitForReply!, withinMs: 60_000 } } : st,
    );
    const pending = executeRequest({ seq: 0, scenario: long, mode: 'sync' }, ctx);
    await endWindow(clock, receiver, () => receiver.messagesOf(2003).length === 1, 1_000);
    // Past the check: the echo came, so the step keeps waiting for the reply (the emulator answers 1.5 s later, in real time).
    await expect.poll(() => receiver.messagesOf(2003).length, { interval: 20 }).toBe(2);
    const record = await pending;
    expect(record.failures).toEqual([]);
    expect(record.passed).toBe(true);
  });

  it('with a wrong verify token, the timeout says so', async () => {
    const clock = testClock();
    const { ctx, receiver } = await rig({ clock, token: 'not-the-verify-token-0123456789abcdef' });
    const pending = run('slow or missing reply', ctx);
    await endWindow(clock, receiver, () => receiver.inboundStats().messages.badSecret >= 1, 2_000);
    expect((await pending).failures[0]?.message).toMatch(
      /^step 1 \(send\): no message webhook delivery accepted in 2 s: the receiver refused \d+ forwarded message\(s\) for a wrong verify_token: set the service's Verify Token/,
    );
  });
});

describe('send with noReplyWithin', () => {
  it('passes with the bot off: the window ends on the receiver clock, and the forwarded human message shows the webhook works', async () => {
    const clock = testClock();
    const { ctx, receiver, emulator } = await rig({ clock });
    const pending = run('takeover', ctx);
    await endWindow(clock, receiver, () => receiver.messagesOf(2003).length === 1, 5_000);
    const record = await pending;
    expect(record.failures).toEqual([]);
    expect(record.passed).toBe(true);
    expect(record.steps![1]!.body).toEqual({ success: true, mid: expect.any(String), reply: null });
    expect(emulator.stats()).toMatchObject({ botReplies: 0, messagesForwarded: 1 });
  });

  it('fails with the bot on, showing the reply that came', async () => {
    const { ctx } = await rig();
    const record = await run('bot on', ctx);
    expect(record.passed).toBe(false);
    expect(record.failures).toEqual([
      expect.objectContaining({
        path: 'reply',
        matcher: 'noReplyWithin',
        actual: expect.objectContaining({ type: 'ai', customerId: 2003 }),
        message: expect.stringMatching(
          /^step 1 \(send\): expected no reply within 30 s, got a reply of type ai after [\d.]+ ms: ".+"$/,
        ),
      }),
    ]);
    expect((record.steps![0]!.body as { reply: { type: string } }).reply.type).toBe('ai');
  });

  it('cannot pass without a message webhook: the absence would prove nothing', async () => {
    const clock = testClock();
    const { ctx, receiver, emulator } = await rig({ clock, wire: false });
    const pending = run('takeover', ctx);
    await endWindow(clock, receiver, () => emulator.stats().messagesStored === 1, 5_000);
    const record = await pending;
    expect(record.passed).toBe(false);
    expect(record.failures[0]?.message).toMatch(
      /^step 2 \(send\): cannot show that no reply came: no message webhook delivery in 5 s, not even the copy of customer 2003's own message/,
    );
  });
});
