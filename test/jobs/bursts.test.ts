/**
 * Bursts (docs/bursts.md) against two implementations of the API, on 127.0.0.1 port 0: the
 * embedded emulator and the second implementation (test/helpers/alt-service.ts), each slow
 * enough (1 s an answer) that the customer's second message, 300 ms after the first, goes
 * before the first answer came, so the service sees two human turns in a row:
 *
 * - keeping only the last of consecutive human turns (the emulator's planted weakness, the alt
 *   service's `lastHumanTurnOnly`), the burst "I want 2 T-Shirt" then "and 1 Canvas Bag",
 *   whose final cart must hold both, fails in both modes, the final cart shown;
 * - a correct implementation passes it in both modes, 5 runs of 5 (and so does the emulator
 *   answering at once, when the first answer came before the second message);
 * - one that answers a burst's first message 1 s later than the rest (the emulator's `burst-first-late`
 *   fault, the alt service's `burstFirstLateMs`): the report counts the burst answered out of
 *   order with a stale last answer, naming both requestIds;
 * - a load whose conversations send their turns as bursts (`--burst-gap`) gives the out-of-order
 *   share per interval in report.json, and `burst.out_of_order.rate < 1%` is judged (exit 99).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeTwoTurnTalk } from '../helpers/two-turn-talk.js';
import { DroidClient } from '../../src/client/index.js';
import { resolveConfig } from '../../src/config/index.js';
import { createEmulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { runLoad } from '../../src/jobs/index.js';
import { createReceiver } from '../../src/receiver/index.js';
import { readReportFile, type ReportDocument } from '../../src/report/index.js';
import type { RequestRecord } from '../../src/runner/index.js';
import { parseSuite, STARTER_SUITE, type Suite } from '../../src/scenario/index.js';
import { startAltService, type AltServiceOptions } from '../helpers/alt-service.js';
import { collectReportDir, freePort } from '../helpers/cli.js';
import { reportOf, runPlan } from '../helpers/engine.js';
import { sink } from '../helpers/in-process-cli.js';
import { startLoopback } from '../helpers/loopback.js';

const SECRET = 'bursts-secret-0123456789abcdef0123456789';

/** The burst of the issue: the final cart must hold both products (any droid's line shape: two lines). */
const suiteOf = (final: 'last-message' | 'last-delivered', repeat = 1, gap = '300ms'): Suite =>
  parseSuite(
    `
suite: Bursts
scenarios:
  - name: two products in one burst
    repeat: ${repeat}
    steps:
      - burst:
          say:
            - I want 2 T-Shirt
            - and 1 Canvas Bag
          gap: ${gap}
          final: ${final}
        expect:
          shoppingCart.products: { length: 2 }
`,
    'bursts.yaml',
  );

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** Runs `suite` in both modes against the emulator with `options`, and its report. */
async function onEmulator(
  suite: Suite,
  options: EmulatorOptions,
): Promise<{ records: RequestRecord[]; doc: ReportDocument }> {
  const rig = await startLoopback({ secret: SECRET, emulator: options });
  closers.push(() => rig.close());
  const run = await runPlan(rig, [suite], { timeoutMs: 20_000 });
  return { records: run.records ?? [], doc: reportOf(run, rig.receiver.stats()) };
}

/** Runs `suite` in both modes against the second implementation with `options`, and its report. */
async function onAlt(
  suite: Suite,
  options: AltServiceOptions,
): Promise<{ records: RequestRecord[]; doc: ReportDocument }> {
  const receiver = createReceiver({ secret: SECRET });
  await receiver.listen();
  const service = await startAltService({
    ...options,
    answerWebhook: { url: receiver.urls()!.answer, secret: SECRET },
  });
  const dispatcher = new Agent();
  const client = new DroidClient({ baseUrl: service.url, droidId: service.droidId, token: service.token, dispatcher });
  closers.push(async () => {
    await service.close();
    await dispatcher.close();
    await receiver.close();
  });
  const run = await runPlan({ client, receiver }, [suite], { timeoutMs: 20_000 });
  return { records: run.records ?? [], doc: reportOf(run, receiver.stats()) };
}

/** How a message's label names its requestId (`tpa-..., `), when it has one. */
const idOf = (requestId: string | undefined): string => (requestId === undefined ? '' : `${requestId}, `);

/** Each answer's time, ms: the second message (300 ms after the first) goes long before the first answer. */
const SLOW = 1000;
/** How much longer the first message's answer is held: it then arrives 1 s after the second's (1 s + the 300 ms gap). */
const LATE = 1300;
const TARGETS = {
  emulator: {
    weak: (s: Suite) => onEmulator(s, { answerDelayMs: SLOW, weaknesses: ['last-human-turn-only'] }),
    correct: (s: Suite) => onEmulator(s, { answerDelayMs: SLOW }),
    late: (s: Suite) =>
      onEmulator(s, {
        answerDelayMs: SLOW,
        faults: { requests: [{ endpoint: '*', action: 'burst-first-late', delayMs: LATE }] },
      }),
  },
  'second implementation': {
    weak: (s: Suite) => onAlt(s, { answerDelayMs: SLOW, syncDelayMs: SLOW, lastHumanTurnOnly: true }),
    correct: (s: Suite) => onAlt(s, { answerDelayMs: SLOW, syncDelayMs: SLOW }),
    late: (s: Suite) => onAlt(s, { answerDelayMs: SLOW, syncDelayMs: SLOW, burstFirstLateMs: LATE }),
  },
} as const;

describe.each(Object.entries(TARGETS))('a burst against the %s', (_name, target) => {
  it('keeping only the last of consecutive human turns fails the final cart in both modes, and shows it', async () => {
    const { records } = await target.weak(suiteOf('last-message'));
    expect(records.map((r) => r.mode).sort()).toEqual(['async', 'sync']);
    for (const r of records) {
      expect(r.outcome).toBe('answered');
      expect(r.passed).toBe(false);
      const [failure] = r.failures;
      // The second message was sent before the first answer came: the service saw two human turns.
      expect(r.bursts![0]!.messages[1]!.answersSeen).toBe(0);
      const second = `message 2 (${idOf(r.bursts![0]!.messages[1]!.requestId)}at `;
      expect(failure!.message).toContain(
        `step 1 (burst): final state [judged: the answer to the last message, ${second}`,
      );
      expect(failure!.message).toMatch(
        /; final cart: (empty|1 x [^,;]+)\]: shoppingCart\.products: expected a length of 2/,
      );
    }
  });

  it('a correct implementation passes in both modes, 5 runs of 5', async () => {
    const { records, doc } = await target.correct(suiteOf('last-message', 5));
    expect(records).toHaveLength(10);
    expect(records.filter((r) => r.passed)).toHaveLength(10);
    expect(doc.bursts).toMatchObject({ total: 10, unanswered: 0, declined: 0 });
  });

  it('answering the first message 1 s later: counted out of order with a stale last answer, both requestIds named', async () => {
    const { records, doc } = await target.late(suiteOf('last-delivered'));
    expect(doc.bursts).toMatchObject({ total: 2, outOfOrder: 2, staleLast: 2, unanswered: 0 });
    for (const r of records) {
      const burst = r.bursts![0]!;
      const [first, second] = burst.messages.map((m) => m.requestId);
      // Every async answer has its requestId (spec 9); a sync answer's field names are not shown
      // (spec 8): the second implementation's has none, so its messages are named by number alone.
      expect(first !== undefined && second !== undefined).toBe(r.mode === 'async' || _name === 'emulator');
      expect(burst.messages[0]!.arrivedAtMs!).toBeGreaterThan(burst.messages[1]!.arrivedAtMs!);
      for (const check of ['out-of-order', 'stale-last'] as const) {
        const f = doc.bursts!.findings.find((x) => x.check === check && x.mode === r.mode)!;
        expect(f.requestIds).toEqual([first, second].filter((id) => id !== undefined));
        expect(f.lastDelivered).toBe(first);
        expect(f.lastMessage).toBe(second);
        expect(f.arrivals.map((a) => [a.message, a.requestId])).toEqual([
          [1, first],
          [2, second],
        ]);
        expect(f.arrivals[0]!.arrivedAtMs!).toBeGreaterThan(f.arrivals[1]!.arrivedAtMs!);
        expect(f.message).toContain(`message 1 (${idOf(first)}at `);
        expect(f.message).toContain(`message 2 (${idOf(second)}at `);
      }
      // The final state judged is the answer delivered last: the stale one, the first message's.
      expect(r.requestId).toBe(first);
    }
  });
});

describe("init's starter: the commented burst example, uncommented", () => {
  const block = STARTER_SUITE.slice(STARTER_SUITE.indexOf('#  - name: a customer who does not wait'));
  const example = parseSuite(`scenarios:\n${block.replace(/^#/gm, '')}`, 'starter-burst.yaml');

  it.each([
    ['the emulator answering at once', () => onEmulator(example, {})],
    ['the emulator keeping only the last human turn', () => TARGETS.emulator.weak(example)],
    ['the emulator answering the first message last', () => TARGETS.emulator.late(example)],
    ['the second implementation', () => onAlt(example, {})],
    [
      'the second implementation keeping only the last human turn',
      () => TARGETS['second implementation'].weak(example),
    ],
    [
      'the second implementation answering the first message last',
      () => TARGETS['second implementation'].late(example),
    ],
  ])('holds against %s, in both modes', async (_what, target) => {
    expect(example.scenarios.map((s) => [s.name, s.steps?.[0]?.kind])).toEqual([
      ['a customer who does not wait for the answer', 'burst'],
    ]);
    const { records } = await target();
    expect(records.map((r) => [r.mode, r.passed, r.failures])).toEqual([
      ['sync', true, []],
      ['async', true, []],
    ]);
  });
});

describe('a burst against the emulator answering at once', () => {
  it('passes in both modes: the first answer came before the second message, which the droid reads on from', async () => {
    // A gap no busy machine's delivery of an immediate answer outlasts. 1.5 s was outlasted once:
    // this file runs at nice 10 beside the timing project (test/run.mjs), and in a CI run with
    // other work on the machine one of the ten first answers came after it (5.2 s, not 3 s).
    const { records, doc } = await onEmulator(suiteOf('last-delivered', 5, '4s'), {});
    // A failure shows what the record saw (its burst's timings and answers), not only a count.
    const failed = records
      .filter((r) => !r.passed)
      .map((r) => ({ mode: r.mode, failures: r.failures, burst: r.bursts }));
    expect(failed).toEqual([]);
    expect(records).toHaveLength(10);
    expect(records.every((r) => r.bursts![0]!.messages[1]!.answersSeen === 1)).toBe(true);
    expect(doc.bursts).toMatchObject({ total: 10, outOfOrder: 0, staleLast: 0, cartRegressed: 0 });
  });
});

describe('load: conversations sent as bursts', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-bursts-'));
    await writeTwoTurnTalk(dir);
  });
  afterAll(async () => {
    collectReportDir(join(dir, 'out'));
    await rm(dir, { recursive: true, force: true });
  });

  it('report.json has the out-of-order share per interval and the bursts section; the threshold is judged', async () => {
    const port = await freePort();
    const emulator = await createEmulator({
      answerDelayMs: SLOW,
      faults: { requests: [{ endpoint: '*', action: 'burst-first-late', delayMs: LATE }] },
      webhookUrl: `http://127.0.0.1:${port}/webhook`,
      webhookSecret: SECRET,
    });
    const baseUrl = await emulator.listen();
    closers.push(() => emulator.close());
    const reportDir = join(dir, 'out');
    const config = resolveConfig(
      'load',
      {
        paths: [join(dir, 'talk.yaml')],
        baseUrl,
        droidId: String(emulator.droidId),
        receiverPort: port,
        rate: 5,
        duration: '3s',
        mode: 'async',
        burstGap: '300ms',
        reportDir,
        progress: 0,
        timeout: '20s',
        thresholds: ['burst.out_of_order.rate < 1%'],
        reporters: ['json'],
      },
      { DROID_API_TOKEN: emulator.token, DROID_WEBHOOK_SECRET: SECRET },
    );
    const summary = await runLoad(config, { stdout: sink(), stderr: sink(), env: {} });
    const report = await readReportFile(join(reportDir, 'report.json'));
    const sent = report.load!.sent;
    expect(sent).toBeGreaterThan(5);
    const bursts = report.bursts!;
    expect(bursts.total).toBe(sent);
    // Every first answer is held past its second (a machine stalled 700 ms may let one through).
    expect(bursts.outOfOrder).toBeGreaterThanOrEqual(sent - 1);
    expect(bursts.staleLast).toBe(bursts.outOfOrder);
    // Each interval counts the bursts of the conversations that ended in it, with its share.
    const points = report.timeline!.points.filter((p) => p.bursts);
    expect(points.length).toBeGreaterThan(0);
    expect(points.reduce((n, p) => n + p.bursts!.total, 0)).toBe(sent);
    expect(points.reduce((n, p) => n + p.bursts!.outOfOrder.count, 0)).toBe(bursts.outOfOrder);
    for (const p of points) {
      const b = p.bursts!;
      expect(b.outOfOrder.share).toBeCloseTo(b.outOfOrder.count / b.total, 10);
      expect(b.outOfOrder.interval.low).toBeLessThanOrEqual(b.outOfOrder.share!);
    }
    const threshold = report.thresholds.find((t) => t.metric === 'burst.out_of_order.rate')!;
    expect(threshold).toMatchObject({ status: 'breached', count: sent });
    expect(threshold.actual).toBeCloseTo(bursts.outOfOrder / sent, 10);
    expect(summary.exitCode).toBe(99);
  });
});
