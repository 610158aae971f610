/**
 * W3C Trace Context to the service (docs/telemetry.md, "Trace context to the service"): against
 * a second implementation of the API (test/helpers/alt-service.ts), every call droidcheck makes
 * carries a valid `traceparent` (W3C Trace Context, section 3.2: version 00, a 32-hex trace id and
 * a 16-hex parent id, neither all zeros), the calls of one conversation share its trace id, which
 * is the report entry's `traceId`, and each call has a parent id of its own; export off, so the
 * sampled flag is clear. With `--no-trace-context`, no call carries one.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../../src/report/index.js';
import { startAltService, type AltService } from '../helpers/alt-service.js';
import { droidcheck, freePort } from '../helpers/cli.js';

const SECRET = 'alt-webhook-secret-trace-0123456789abcdef';
const TRACEPARENT = /^00-(?!0{32})([0-9a-f]{32})-(?!0{16})([0-9a-f]{16})-([0-9a-f]{2})$/;
const SUITE = `suite: traced
scenarios:
  - name: one answer
    humanMessage: Hello there
    expect: { answer: { present: true } }
  - name: a conversation
    modes: [async]
    steps:
      - say: Hello
        capture: { customer: customerId }
      - say: Do you have a rain jacket?
      - call: customer
        customerId: "{{ vars.customer }}"
`;

let dir: string;
let service: AltService | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-traceparent-'));
  await writeFile(join(dir, 'suite.yaml'), SUITE);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function runAgainstAlt(extra: string[]): Promise<{ report: ReportDocument; alt: AltService }> {
  const port = await freePort();
  const alt = await startAltService({ answerWebhook: { url: `http://127.0.0.1:${port}/webhook`, secret: SECRET } });
  service = alt;
  const out = join(dir, `out-${port}`);
  const r = await droidcheck(
    [
      'run',
      'suite.yaml',
      '--base-url',
      alt.url,
      '--droid-id',
      String(alt.droidId),
      '--receiver-port',
      String(port),
      '--reporter',
      'json',
      '-o',
      out,
      ...extra,
    ],
    { cwd: dir, env: { DROID_API_TOKEN: alt.token, DROID_WEBHOOK_SECRET: SECRET } },
  );
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return { report: JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportDocument, alt };
}

const isAnswerCall = (path: string): boolean => /\/get-droid-answer(-async)?$/.test(path);

describe('traceparent on every call to the service', () => {
  it('carries a valid traceparent on every answer call, one trace per conversation', async () => {
    const { report, alt } = await runAgainstAlt([]);
    const answerCalls = alt.traceHeaders.filter((h) => isAnswerCall(h.path));
    // The plain scenario in both modes, the conversation's two turns; the preflight's probes too.
    expect(answerCalls.length).toBeGreaterThanOrEqual(4);
    const sent = alt.traceHeaders.filter((h) => h.traceparent !== undefined);
    for (const h of answerCalls) expect(h.traceparent, h.path).toMatch(TRACEPARENT);
    // A parent id per call (the sync call resent in the other humanMessage form is the same call).
    const parents = sent
      .filter((h) => !h.path.endsWith('/get-droid-answer'))
      .map((h) => TRACEPARENT.exec(h.traceparent!)![2]);
    expect(new Set(parents).size, 'a parent id per call').toBe(parents.length);
    for (const h of sent) expect(TRACEPARENT.exec(h.traceparent!)![3], 'nothing recorded: not sampled').toBe('00');
    // Each entry's calls (its turns and its customer call) carry its trace id.
    const traces = new Map<string, string[]>();
    for (const h of sent) {
      const id = TRACEPARENT.exec(h.traceparent!)![1]!;
      traces.set(id, [...(traces.get(id) ?? []), h.path]);
    }
    expect(report.scenarios).toHaveLength(3);
    for (const s of report.scenarios) {
      expect(s.traceId, s.name).toMatch(/^[0-9a-f]{32}$/);
      const paths = traces.get(s.traceId!) ?? [];
      if (s.name === 'a conversation') {
        expect(paths.filter(isAnswerCall)).toHaveLength(2);
        expect(paths.some((p) => /\/customer\/\d+$/.test(p))).toBe(true);
      } else expect(new Set(paths.filter(isAnswerCall)).size).toBe(1);
    }
  });

  it('sends none with --no-trace-context', async () => {
    const { report, alt } = await runAgainstAlt(['--no-trace-context']);
    expect(alt.traceHeaders.filter((h) => isAnswerCall(h.path)).length).toBeGreaterThanOrEqual(4);
    expect(alt.traceHeaders.filter((h) => h.traceparent !== undefined || h.tracestate !== undefined)).toEqual([]);
    for (const s of report.scenarios) expect(s.traceId).toBeUndefined();
  });
});
