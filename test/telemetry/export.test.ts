/**
 * OpenTelemetry export end to end (docs/telemetry.md): the README's quick start (`droidcheck
 * run`, the shipped scenarios, the embedded emulator in its worker thread) with
 * OTEL_EXPORTER_OTLP_ENDPOINT set to a local OTLP/HTTP receiver of the test's own: a trace per
 * conversation whose spans carry every requestId of report.json, the emulator's spans joined to
 * droidcheck's call (its server span's parent is droidcheck's client span), and metrics whose
 * last export counts the report's requests; over http/protobuf (the default) and http/json. A
 * sampler that keeps nothing still keeps a failed conversation whole.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../../src/report/index.js';
import { droidcheck, REPO } from '../helpers/cli.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';

let dir: string;
let otlp: OtlpReceiver;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-otlp-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  otlp = await startOtlpReceiver();
});
afterEach(async () => {
  await otlp.close();
});

const CLIENT = 3;
const SERVER = 2;

/** The requestIds of report.json: each entry's, and each step's. */
function requestIds(report: ReportDocument): string[] {
  const ids = new Set<string>();
  for (const s of report.scenarios) if (s.requestId) ids.add(s.requestId);
  return [...ids];
}

/** The last export's sum of `name` over its data points. */
function lastSum(receiver: OtlpReceiver, name: string): number {
  const points = receiver.points.filter((p) => p.name === name);
  const last = Math.max(...points.map((p) => p.export));
  return points.filter((p) => p.export === last).reduce((n, p) => n + (p.value ?? 0), 0);
}

describe('the quick start with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  for (const protocol of ['http/protobuf', 'http/json'] as const) {
    it(`exports a trace per conversation and the request count (${protocol})`, async () => {
      const out = join(dir, protocol.replace('/', '-'));
      const r = await droidcheck(['run', '-o', out], {
        cwd: REPO,
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol },
      });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportDocument;
      const type = protocol === 'http/json' ? 'application/json' : 'application/x-protobuf';
      expect([...(otlp.contentTypes.get('/v1/traces') ?? [])]).toEqual([type]);
      expect([...(otlp.contentTypes.get('/v1/metrics') ?? [])]).toEqual([type]);

      const ours = otlp.spans.filter((s) => s.service === 'droidcheck');
      const roots = ours.filter((s) => s.name === 'conversation');
      // One trace per conversation, each the trace of its report entry.
      expect(roots).toHaveLength(report.summary.requests);
      expect(new Set(roots.map((s) => s.traceId)).size).toBe(report.summary.requests);
      expect(new Set(report.scenarios.map((s) => s.traceId))).toEqual(new Set(roots.map((s) => s.traceId)));
      for (const root of roots) {
        expect(root.parentSpanId).toBe('');
        expect(root.attributes['gen_ai.conversation.id']).toMatch(/-\d+$/);
      }
      // Every requestId of the report is on a span of its conversation's trace.
      const byRequest = new Map<unknown, ReceivedSpan[]>();
      for (const s of ours) {
        const id = s.attributes['droidcheck.request_id'];
        if (id !== undefined) byRequest.set(id, [...(byRequest.get(id) ?? []), s]);
      }
      for (const id of requestIds(report)) {
        const entry = report.scenarios.find((s) => s.requestId === id)!;
        expect(
          byRequest.get(id)?.map((s) => s.traceId),
          id,
        ).toContain(entry.traceId);
      }
      // The emulator's request span is a child of droidcheck's HTTP call: one tree.
      const calls = new Map(ours.filter((s) => s.kind === CLIENT).map((s) => [s.spanId, s]));
      const served = otlp.spans.filter((s) => s.service === 'droidcheck-emulator' && s.kind === SERVER);
      expect(served.length).toBeGreaterThan(0);
      for (const s of served) {
        const parent = calls.get(s.parentSpanId);
        expect(parent, `${s.name}'s parent`).toBeDefined();
        expect(parent!.traceId).toBe(s.traceId);
        expect(parent!.attributes['http.request.method']).toBe('POST');
      }
      // The emulator's delivery of an async answer, with its attempt.
      const delivery = otlp.spans.find((s) => s.service === 'droidcheck-emulator' && s.name === 'webhook delivery');
      expect(delivery?.events.map((e) => e.name)).toContain('webhook.attempt');

      // The last export of the metrics holds the final counts.
      expect(lastSum(otlp, 'droidcheck.requests')).toBe(report.summary.requests);
      const attrs = otlp.points.find((p) => p.name === 'droidcheck.requests')!.attributes;
      expect(attrs).toMatchObject({ 'droidcheck.job': 'run', outcome: 'answered' });
      expect(attrs['droidcheck.run.id']).toEqual(expect.any(String));
    });
  }

  it('keeps a failed conversation whole when the sampler keeps nothing', async () => {
    await writeFile(
      join(dir, 'mixed.yaml'),
      `suite: mixed
scenarios:
  - name: passes
    modes: [async]
    humanMessage: Hello
    expect: { answer: { present: true } }
  - name: fails
    modes: [async]
    humanMessage: Hello
    expect: { answer: { contains: "this text is in no answer" } }
`,
    );
    const out = join(dir, 'sampled');
    const r = await droidcheck(['run', 'mixed.yaml', '-o', out, '--trace-url', 'http://traces.test/trace/{traceId}'], {
      cwd: dir,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_TRACES_SAMPLER: 'always_off' },
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportDocument;
    const failed = report.scenarios.find((s) => s.name === 'fails')!;
    const ours = otlp.spans.filter((s) => s.service === 'droidcheck');
    expect(new Set(ours.map((s) => s.traceId))).toEqual(new Set([failed.traceId]));
    expect(ours.map((s) => s.name).sort()).toEqual(
      ['POST /get-droid-answer-async', 'answer turn', 'conversation', 'webhook delivery'].sort(),
    );
    const root = ours.find((s) => s.name === 'conversation')!;
    expect(root.status.code).toBe(2);
    const verdict = root.events.find((e) => e.name === 'gen_ai.evaluation.result')!;
    expect(verdict.attributes).toMatchObject({ 'gen_ai.evaluation.score.label': 'fail' });
    expect(String(verdict.attributes['gen_ai.evaluation.explanation'])).toContain('this text is in no answer');
    // The failure in report.html links to its trace.
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toContain(`href="http://traces.test/trace/${failed.traceId}"`);
  });
});
