/**
 * `webhookPolicy`: the webhook retry policy `droidcheck webhook-policy` measured on the
 * receiving side (jobs/webhook-policy/webhook-policy.ts; how each figure is derived: docs/webhook-policy.md).
 * The service's documentation only says that failed deliveries are "retried per a retry policy"
 * and that a receiver should answer within 5 s; this section says what was seen, one sentence
 * per finding, and compares it with those two hints. One measurement is one process: merging one
 * report keeps it, several leave it out (no single service's policy).
 */
import { z } from 'zod';
import { formatMs } from '../../units.js';
import { defineSection } from '../section.js';
import { code, span, type SectionView, type Text } from '../view.js';
import { count, ms, obj } from './common.js';

const attemptSchema = obj({
  n: count.describe('1 for the first delivery of the probe'),
  afterMs: ms.describe("arrival, from the start of the probe's request"),
  step: z
    .string()
    .describe('what the receiver did on purpose: status 500, status 503, stall, 200 after 6000 ms, usual'),
  status: z.number().int().nullable().describe('status answered; null: none (stalled, or the connection closed first)'),
  answeredAfterMs: ms.nullable().describe("from the attempt's arrival to its answer; null: none"),
});
const probeSchema = obj({
  probe: z.enum(['fail', 'recover', 'stall', 'slow']),
  requestId: z.string().nullable().describe('null when the request was refused'),
  error: z.string().optional().describe('why the probe could not be sent'),
  settled: z
    .boolean()
    .describe(
      'delivered, or quiet long enough after its last attempt to call it given up; false: cut short by --timeout or an interrupt',
    ),
  attempts: z.array(attemptSchema),
});
const configuredSchema = obj({
  attempts: count,
  backoffMs: ms,
  maxBackoffMs: ms,
  timeoutMs: ms,
  jitter: z.number().min(0).max(1).describe('each delay drawn in [1 - jitter, 1 + jitter) × its base'),
});
const webhookPolicySchema = obj({
  attempts: count
    .nullable()
    .describe('deliveries of one answer whose every attempt got 500 (null: the fail probe was not run)'),
  retryDelaysMs: z.array(ms).describe("from each 500 to the next attempt's arrival"),
  attemptTimeoutMs: ms
    .nullable()
    .describe(
      'how long the service waited on a stalled attempt: the gap to the next arrival minus the retry delay (null: not retried, or not run)',
    ),
  givesUpAfterMs: ms.nullable().describe('from the first to the last attempt of the fail probe'),
  retriesOn: z.array(z.enum(['500', '503', 'timeout'])).describe('what made the service try again'),
  duplicateAfterSlow200: z
    .boolean()
    .nullable()
    .describe(
      'a 200 after 6 s was followed by another delivery of the same answer (null: the slow probe was not run or not answered)',
    ),
  quietMs: ms.describe('the quiet period after a probe\'s last attempt that was taken as "gave up"'),
  complete: z.boolean().describe('every probe settled before --timeout'),
  findings: z.array(z.string()).describe('one sentence per finding'),
  configured: configuredSchema.optional().describe("the embedded emulator's own retry policy, when it was the target"),
  probes: z.array(probeSchema),
}).describe('webhook-policy: the retry policy measured on the receiving side');
export type WebhookPolicyReport = z.output<typeof webhookPolicySchema>;
export type WebhookPolicyProbe = WebhookPolicyReport['probes'][number];

const msList = (xs: readonly number[]): string => (xs.length === 0 ? 'none' : xs.map((x) => formatMs(x)).join(', '));
const orNone = (x: number | null, what: string): Text => (x === null ? span(what, 'muted') : formatMs(x));

function policyView(p: WebhookPolicyReport): SectionView {
  const rows: [string, Text][] = [
    ['attempts (every one got 500)', p.attempts === null ? span('not measured', 'muted') : `${p.attempts}`],
    ['retry delays', msList(p.retryDelaysMs)],
    ['attempt timeout', orNone(p.attemptTimeoutMs, 'not measured')],
    ['gives up after', orNone(p.givesUpAfterMs, 'not measured')],
    ['retries on', p.retriesOn.length > 0 ? p.retriesOn.join(', ') : 'nothing seen'],
    [
      'duplicate after a slow 200',
      p.duplicateAfterSlow200 === null
        ? span('not measured', 'muted')
        : p.duplicateAfterSlow200
          ? span('yes', 'warn')
          : 'no',
    ],
    ['"gave up" after a quiet', formatMs(p.quietMs)],
  ];
  if (p.configured) {
    const c = p.configured;
    rows.push([
      'emulator configured',
      `${c.attempts} attempts, backoff ${formatMs(c.backoffMs)} × 2^(n-1) (cap ${formatMs(c.maxBackoffMs)}), jitter ±${Math.round(c.jitter * 100)}%, attempt timeout ${formatMs(c.timeoutMs)}`,
    ]);
  }
  const attemptRows = p.probes.flatMap((pr) =>
    pr.attempts.length === 0
      ? [[pr.probe, '-', pr.error ?? 'no attempt arrived', '-', '-'] as Text[]]
      : pr.attempts.map((a): Text[] => [
          pr.probe,
          String(a.n),
          a.step,
          formatMs(a.afterMs),
          a.status === null ? span('none', 'muted') : String(a.status),
        ]),
  );
  return {
    id: 'webhook-policy',
    title: 'Webhook retry policy',
    ...(p.complete ? {} : { tone: 'warn' as const }),
    summary: p.complete ? span('measured', 'ok') : span('partial: cut short before every probe settled', 'warn'),
    rows,
    tables: [
      {
        caption: 'attempts per probe',
        columns: [
          { header: 'probe' },
          { header: 'attempt' },
          { header: 'receiver did', align: 'l' },
          { header: 'arrived after' },
          { header: 'status' },
        ],
        rows: attemptRows,
      },
    ],
    notes: [
      ...p.findings,
      [
        code('droidcheck webhook-policy'),
        ' measures the receiving side only: a schedule of minutes needs a longer --timeout and --quiet (docs/webhook-policy.md).',
      ],
    ],
  };
}

export const webhookPolicySection = defineSection({
  name: 'webhook-policy',
  fields: { webhookPolicy: webhookPolicySchema.optional() },
  merge: (docs) => (docs.length === 1 && docs[0]!.webhookPolicy ? { webhookPolicy: docs[0]!.webhookPolicy } : {}),
  views: (d) => (d.webhookPolicy ? [policyView(d.webhookPolicy)] : []),
});
