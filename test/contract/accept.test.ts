import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acceptsAll, hasShortcut } from '../../src/contract/accept.js';
import { CONTRACTS, checkContract } from '../../src/contract/index.js';
import { generateAnswer } from '../../src/emulator/index.js';
import { mulberry32 } from '../../src/random.js';
import { answerPayload, errorPayload } from '../receiver/payloads.js';

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;
const valuesOf = (s: unknown): unknown[] => [...((s as { _zod: { values?: Set<unknown> } })._zod.values ?? [])];

const STRINGS = [
  '',
  'x',
  'tpa-abc123',
  'tpa-',
  '2026-02-11T03:20:24.267Z',
  '2025-11-25T09:03:29.138+07:00',
  'yesterday',
  '1,290.00 THB',
  '10',
  '0.00 THB',
  'human',
  'ai',
  'text',
];
const NUMBERS = [0, 1, -3, 1.5, 1001, Number.NaN, Number.POSITIVE_INFINITY];

/** A value built from a zod schema's definition (mostly fitting it), to mutate afterwards. */
function sample(schema: unknown, r: () => number, depth = 0): unknown {
  const d = defOf(schema);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  if (depth > 8) return null;
  switch (d.type) {
    case 'string':
      return pick(STRINGS);
    case 'number':
      return pick(NUMBERS);
    case 'boolean':
      return r() < 0.5;
    case 'null':
      return null;
    case 'literal':
    case 'enum':
      return pick(valuesOf(schema));
    case 'optional':
      return r() < 0.3 ? undefined : sample(d.innerType, r, depth + 1);
    case 'nullable':
      return r() < 0.3 ? null : sample(d.innerType, r, depth + 1);
    case 'array':
      return Array.from({ length: Math.floor(r() * 3) }, () => sample(d.element, r, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(d.shape as Record<string, unknown>)) {
        const v = sample(child, r, depth + 1);
        if (v !== undefined) out[k] = v;
      }
      if (r() < 0.2) out.extra = 'x';
      return out;
    }
    case 'record':
      return r() < 0.5 ? {} : { a: sample(d.valueType, r, depth + 1) };
    case 'union':
      return sample(pick(d.options as unknown[]), r, depth + 1);
    default:
      return pick([null, 'x', 1, {}, [], true]);
  }
}

const ODD: unknown[] = [undefined, null, '', 'x', 0, 1.5, Number.NaN, true, [], {}, ['x'], { a: 1 }];

/** `value` with one node (chosen by `r`) replaced, deleted, or given an extra key. */
function mutate(value: unknown, r: () => number): unknown {
  if (value === null || typeof value !== 'object') return ODD[Math.floor(r() * ODD.length)];
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? [...value]
    : { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  if (keys.length === 0 || r() < 0.15)
    return r() < 0.5
      ? ODD[Math.floor(r() * ODD.length)]
      : Array.isArray(copy)
        ? [...copy, 'x']
        : { ...copy, [`k${Math.floor(r() * 9)}`]: 1 };
  const k = keys[Math.floor(r() * keys.length)] as string;
  const c = copy as Record<string, unknown>;
  if (r() < 0.2 && !Array.isArray(copy)) delete c[k];
  else c[k] = mutate(c[k], r);
  return copy;
}

const tiers = Object.values(CONTRACTS).flatMap((c) => [
  { name: `${c.name} (documented)`, schema: c.documented },
  ...(c.choice ? [{ name: `${c.name} (choice)`, schema: c.choice }] : []),
]);

describe('acceptsAll: a yes-only shortcut in front of zod', () => {
  it('compiles for the hot bodies: answer and error webhooks, acknowledgement, sync answer, error body', () => {
    for (const name of [
      'webhook',
      'webhook-error',
      'get-droid-answer-async',
      'get-droid-answer',
      'error-body',
      'message-webhook',
      'intent-webhook',
    ] as const) {
      expect(hasShortcut(CONTRACTS[name].documented), name).toBe(true);
    }
    expect(hasShortcut(CONTRACTS.webhook.choice!)).toBe(true);
  });

  it('accepts the bodies the service and the emulator send (no zod on their path)', () => {
    const meta = {
      requestId: 'tpa-d5cacv27v60xfhlqpap1gm76',
      droidId: 1,
      customerId: 1001,
      executionTime: 3,
      timestamp: '2026-02-11T03:20:24.267Z',
    };
    for (const humanMessage of [
      'Hello there!',
      'I want 2 silk scarves delivered to 12 Sukhumvit Rd, Bangkok 10110',
      'my name is Anna, phone 0812345678, I want a cotton shirt',
    ]) {
      const body = { ...meta, ...generateAnswer({ humanMessage, chatHistory: [] }) };
      expect(acceptsAll(CONTRACTS.webhook.documented, body), humanMessage).toBe(true);
      expect(acceptsAll(CONTRACTS.webhook.choice!, body), humanMessage).toBe(true);
    }
    expect(acceptsAll(CONTRACTS.webhook.documented, answerPayload('tpa-1'))).toBe(true);
    expect(acceptsAll(CONTRACTS['webhook-error'].documented, errorPayload('tpa-1'))).toBe(true);
    expect(
      acceptsAll(CONTRACTS['get-droid-answer-async'].documented, {
        success: true,
        requestId: 'tpa-1',
        message: 'queued',
      }),
    ).toBe(true);
  });

  it('says yes only where zod says yes, on 60,000 generated and mutated bodies over every contract', () => {
    const r = mulberry32(20_251_123);
    let yes = 0;
    let zodYes = 0;
    for (const { name, schema } of tiers) {
      for (let i = 0; i < 2_000; i++) {
        let body = sample(schema, r);
        for (let m = Math.floor(r() * 3); m > 0; m--) body = mutate(body, r);
        const zod = schema.safeParse(body).success;
        const fast = acceptsAll(schema, body);
        if (fast && !zod) throw new Error(`${name}: accepted what zod rejects: ${JSON.stringify(body)}`);
        if (fast) yes++;
        if (zod) zodYes++;
      }
    }
    // The shortcut is taken for most bodies zod accepts (the rest go to zod, which is only slower).
    expect(yes).toBeGreaterThan(zodYes * 0.9);
  });

  it('runs regex, ISO-format and refine checks as zod does (global patterns, truthy and async refines)', () => {
    const global = /^a+$/g;
    const cases: [z.ZodType, unknown[]][] = [
      [z.string().regex(global), ['aaa', 'aaa', 'b', 'aaa']],
      [z.string().regex(/^\d+$/), ['12', '1x', '']],
      [z.iso.datetime({ offset: true }), ['2026-02-11T03:20:24.267Z', '2026-02-30T03:20:24Z', 'yesterday']],
      [z.string().refine((s) => s.length), ['ab', '']],
      [
        z
          .string()
          .refine((s) => s.startsWith('tpa-'))
          .regex(/\d$/),
        ['tpa-1', 'tpa-x', 'x-1'],
      ],
    ];
    for (const [schema, values] of cases) {
      expect(hasShortcut(schema)).toBe(true);
      for (const v of values) expect(acceptsAll(schema, v), `${String(v)}`).toBe(schema.safeParse(v).success);
    }
    // An asynchronous refine cannot be judged synchronously: the shortcut says "not known" (zod decides).
    const pending = z.string().refine(async () => true);
    expect(acceptsAll(pending, 'x')).toBe(false);
  });

  it("leaves the findings to zod: a body with a violation gets zod's path and message", () => {
    const check = checkContract(CONTRACTS.webhook, { ...answerPayload('tpa-1'), droidId: '1' });
    expect([check.ok, check.violations.map((v) => v.path)]).toEqual([false, ['droidId']]);
    const fine = checkContract(CONTRACTS.webhook, answerPayload('tpa-2'));
    expect([fine.ok, fine.violations, (fine.value as { requestId: string }).requestId]).toEqual([true, [], 'tpa-2']);
  });
});
