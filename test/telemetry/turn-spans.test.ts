/**
 * A conversation's turns in its trace (docs/telemetry.md, Traces), exported to a local OTLP/HTTP
 * receiver of the test's own, against an emulator on 127.0.0.1 that is slow enough for a burst's
 * messages to be in flight together and that sends every answer webhook three times:
 *
 * - every answer turn is a span of its own with its requestId, a burst's concurrent messages
 *   included, and the judge's GenAI span hangs under the turn whose answer it grades: a plain
 *   scenario's, a `say` step's (graded after its turn ended), a burst message's, and the burst's
 *   final state under the message it judged;
 * - droidcheck's own `webhook delivery` span of each requestId carries the receiver's duplicate
 *   deliveries of it as `webhook.duplicate` events (copies 2 and 3), after its `webhook.arrival`,
 *   as many in all as report.json's `receiver.duplicates`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { createEmulator } from '../../src/emulator/index.js';
import { run } from '../../src/jobs/index.js';
import { readReportFile } from '../../src/report/index.js';
import { collectReportDir, freePort } from '../helpers/cli.js';
import { sink } from '../helpers/in-process-cli.js';
import { startOtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { PASS_VERDICT, startFakeOpenAi } from '../llm/fake-openai.js';

const SECRET = 'turn-spans-secret-0123456789abcdef012345';
const SUITE = `suite: traced
scenarios:
  - name: plain
    modes: [async]
    humanMessage: Hello
    expect: { answer: { judge: "plain: greets the customer" } }
  - name: steps
    modes: [async]
    steps:
      - say: Hello
        expect: { answer: { judge: "say: greets the customer" } }
      - burst:
          say:
            - { say: I want 2 T-Shirt, expect: { answer: { judge: "message 1: about the shirts" } } }
            - and 1 Canvas Bag
          gap: 100ms
          final: last-message
        expect: { answer: { judge: "final: about the bag" } }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-turn-spans-'));
  await writeFile(join(dir, 'suite.yaml'), SUITE);
});
afterAll(async () => {
  collectReportDir(join(dir, 'out'));
  await rm(dir, { recursive: true, force: true });
});

describe('turns, judges and duplicate deliveries in the trace', () => {
  it('a span per turn, each judge under its turn, each duplicate an event of its delivery', async () => {
    const otlp = await startOtlpReceiver();
    const fake = await startFakeOpenAi();
    fake.onChat(() => ({ content: PASS_VERDICT }));
    const port = await freePort();
    const emulator = await createEmulator({
      answerDelayMs: 400,
      faults: { webhooks: [{ action: 'duplicate', copies: 3 }] },
      webhookUrl: `http://127.0.0.1:${port}/webhook`,
      webhookSecret: SECRET,
    });
    try {
      const baseUrl = await emulator.listen();
      const out = join(dir, 'out');
      const config = resolveConfig(
        'run',
        {
          paths: [join(dir, 'suite.yaml')],
          baseUrl,
          droidId: String(emulator.droidId),
          receiverPort: port,
          reportDir: out,
          reporters: ['json'],
          judgeModel: 'judge-1',
          cache: false,
          otlpEndpoint: otlp.url,
        },
        { DROID_API_TOKEN: emulator.token, DROID_WEBHOOK_SECRET: SECRET, OPENAI_BASE_URL: fake.url },
      );
      const stderr = sink();
      const result = await run(config, { stdout: sink(), stderr, env: {} });
      expect(result.exitCode, stderr.text).toBe(0);
      const report = await readReportFile(join(out, 'report.json'));
      const ours = otlp.spans.filter((s) => s.service === 'droidcheck');
      const byId = new Map(ours.map((s) => [s.spanId, s]));
      const turns = ours.filter((s) => s.name === 'answer turn');
      const turnOf = (requestId: string): ReceivedSpan => {
        const found = turns.filter((s) => s.attributes['droidcheck.request_id'] === requestId);
        expect(found, requestId).toHaveLength(1);
        return found[0]!;
      };

      // Every turn a span with its own requestId: the plain one, the say, the burst's two messages.
      const plain = report.scenarios.find((s) => s.name === 'plain')!;
      const steps = report.scenarios.find((s) => s.name === 'steps')!;
      expect(turns).toHaveLength(4);
      const rootOf = (traceId: string): ReceivedSpan =>
        ours.find((s) => s.traceId === traceId && s.name === 'conversation')!;
      const stepTurns = turns
        .filter((t) => t.traceId === steps.traceId)
        .sort((a, b) => Number(a.attributes['droidcheck.turn']) - Number(b.attributes['droidcheck.turn']));
      expect(stepTurns.map((t) => t.attributes['droidcheck.turn'])).toEqual([0, 1, 2]);
      const [sayId, m1, m2] = stepTurns.map((t) => String(t.attributes['droidcheck.request_id']));
      expect(new Set([plain.requestId, sayId, m1, m2]).size).toBe(4);
      // The final state judged is the last message's answer: the scenario entry names it.
      expect(steps.requestId).toBe(m2);
      for (const id of [plain.requestId!, sayId!, m1!, m2!]) {
        const t = turnOf(id);
        expect(t.endNs).toBeGreaterThan(t.startNs);
        expect(t.parentSpanId, 'a turn hangs under its conversation').toBe(rootOf(t.traceId).spanId);
      }
      // The burst's messages were in flight together: the second began before the first ended.
      expect(turnOf(m2!).startNs).toBeLessThan(turnOf(m1!).endNs);

      // Each judge call under the turn whose answer it graded.
      const judges = ours.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
      expect(judges).toHaveLength(4);
      for (const j of judges) expect(j.attributes).toMatchObject({ 'gen_ai.request.model': 'judge-1' });
      const parentTurns = judges.map((j) => byId.get(j.parentSpanId));
      for (const p of parentTurns) expect(p?.name).toBe('answer turn');
      expect(parentTurns.map((p) => p!.attributes['droidcheck.request_id']).sort()).toEqual(
        // The plain turn, the say, message 1's own expectation and the final state (the last message's answer).
        [plain.requestId!, sayId!, m1!, m2!].sort(),
      );

      // Duplicate deliveries: two extra copies of every answer webhook, events of its delivery span.
      const deliveries = ours.filter((s) => s.name === 'webhook delivery');
      expect(deliveries).toHaveLength(4);
      let events = 0;
      for (const d of deliveries) {
        const arrival = d.events.find((e) => e.name === 'webhook.arrival')!;
        const copies = d.events.filter((e) => e.name === 'webhook.duplicate');
        expect(
          copies.map((e) => e.attributes['droidcheck.copy']),
          String(d.attributes['droidcheck.request_id']),
        ).toEqual([2, 3]);
        for (const c of copies) expect(c.timeNs).toBeGreaterThanOrEqual(arrival.timeNs);
        // The span still ends at the arrival: held open for the copies, not stretched by them.
        expect(d.endNs).toBe(arrival.timeNs);
        events += copies.length;
      }
      expect(report.receiver.duplicates).toBe(8);
      expect(events).toBe(report.receiver.duplicates);
    } finally {
      await emulator.close();
      await fake.close();
      await otlp.close();
    }
  });
});
