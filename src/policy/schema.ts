/**
 * The policy file's format (droidcheck.policy.yaml, docs/policy.md): the shop's own rules, which
 * every answer of every job is checked against (rules/ and registry.ts). The zod schema is the
 * one source of the loader's checks (load.ts), of the `Policy` type and of the JSON Schema that
 * ships as droidcheck.policy.schema.json (`droidcheck schema --policy`).
 *
 * Money in the file is a number or a string with thousands separators (`1,290.00`), in the
 * policy's `currency`; a percent is `10%` or the bare number `10` (a number is always a percent,
 * never a share: `0.1` is 0.1%).
 */
import { z } from 'zod';
import { parseAmount } from './money.js';

/** An amount: a number, or a string with thousands separators and, optionally, a currency. */
const amount = z
  .union([z.number(), z.string()])
  .transform((v, ctx) => {
    const n = typeof v === 'number' ? v : parseAmount(v)?.amount;
    if (n === undefined || !Number.isFinite(n) || n < 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be an amount >= 0 such as 390 or "1,290.00", got ${JSON.stringify(v)}`,
      });
      return z.NEVER;
    }
    return n;
  })
  .describe('an amount in the policy currency: a number or "1,290.00"');

const percent = z
  .union([z.number(), z.string()])
  .transform((v, ctx) => {
    const m = typeof v === 'number' ? [String(v), String(v)] : /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(v);
    const n = m?.[1] !== undefined ? Number(m[1]) : Number.NaN;
    if (!Number.isFinite(n) || n < 0 || n > 100) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a percent from 0% to 100% such as "10%", got ${JSON.stringify(v)}`,
      });
      return z.NEVER;
    }
    return n / 100;
  })
  .describe('a percent: "10%" or 10 (a number is a percent, never a share)');

const productSchema = z
  .strictObject({
    name: z.string().min(1).describe('the product as the droid names it in a cart line'),
    price: amount.describe('the list price of one unit'),
    minPrice: amount
      .optional()
      .describe('the lowest unit price a promotion may reach; a cart line between it and `price` is not a finding'),
    aliases: z
      .array(z.string().min(1))
      .optional()
      .describe('other names of the product (codes, short names, translations)'),
  })
  .refine((p) => p.minPrice === undefined || p.minPrice <= p.price, {
    message: 'minPrice must not be above price',
    path: ['minPrice'],
  });

/** A forbidden phrase or canary: text (whole words, case and runs of whitespace ignored) or `/regex/flags`. */
const pattern = z
  .string()
  .min(1)
  .superRefine((v, ctx) => {
    const re = /^\/(.+)\/([a-z]*)$/s.exec(v);
    if (!re) return;
    try {
      new RegExp(re[1] ?? '', re[2]);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `is not a valid regular expression: ${(err as Error).message}` });
    }
  })
  .describe('text (whole words, case and whitespace ignored) or /regex/flags');

/** What `appliesTo` takes: any target, or only the embedded emulator (its demo shop's policy). */
const POLICY_TARGETS = ['any', 'embedded-emulator'] as const;

export const policyFileSchema = z.strictObject({
  appliesTo: z
    .enum(POLICY_TARGETS)
    .optional()
    .describe(
      "embedded-emulator: the file describes the embedded emulator's demo shop (droidcheck init writes it so) and is checked only when the target is the embedded emulator, never against a real service; remove it once the file describes your shop. Default any",
    ),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as THB')
    .describe('ISO 4217 code of every amount of the file, e.g. THB'),
  catalogue: z
    .array(productSchema)
    .optional()
    .describe("the shop's price list: catalogue-price, max-discount (and shipping-fee) read it"),
  shipping: z
    .strictObject({
      fee: amount.describe('the flat shipping fee of an order'),
      freeFrom: amount.optional().describe('orders whose subtotal reaches this amount ship free'),
    })
    .optional()
    .describe('the shipping rule: shipping-fee and max-discount read it'),
  maxDiscount: percent.optional().describe('how far below the list prices a cart may ever go (max-discount)'),
  forbidden: z.array(pattern).optional().describe('phrases no answer may contain (forbidden-phrase)'),
  canaries: z
    .array(pattern)
    .optional()
    .describe("lines of the droid's instructions that must never show in an answer (canary)"),
  languages: z
    .array(z.string().regex(/^[a-z]{2}$/, 'must be a two-letter ISO 639-1 code such as th or en'))
    .min(1)
    .optional()
    .describe("the languages an answer may be in (language); absent: the answer's language is not checked"),
  intents: z
    .array(z.string().trim().min(1))
    .superRefine((names, ctx) => {
      const seen = new Set<string>();
      names.forEach((n, i) => {
        const key = n.toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: `lists the intent "${n}" twice` });
        seen.add(key);
      });
    })
    .optional()
    .describe(
      "the droid's intents, named as its owner configured them (what its answers report in `intents`); no rule reads them: the report's coverage says which were never seen",
    ),
  otherCustomerData: z
    .boolean()
    .optional()
    .describe(
      'check that no name, phone, email or address another conversation of the run gave shows in an answer (default true)',
    ),
});

/** The file as read: amounts as numbers, percents as shares 0..1. */
export type PolicyData = z.output<typeof policyFileSchema>;

/**
 * Whether the policy is checked against a target: a policy of the embedded emulator's demo shop
 * (`appliesTo: embedded-emulator`) is not checked against a real service, whose shop it does not
 * describe, so the starter `init` writes stays green against any droid that keeps to the spec.
 */
export function policyApplies(policy: Pick<PolicyData, 'appliesTo'>, target: 'emulator' | 'remote'): boolean {
  return policy.appliesTo !== 'embedded-emulator' || target === 'emulator';
}

/** The JSON Schema (draft 2020-12) of the policy file, shipped as droidcheck.policy.schema.json. */
export function policyJsonSchema(): Record<string, unknown> {
  return {
    ...(z.toJSONSchema(policyFileSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>),
    title: 'droidcheck shop policy',
    description:
      "The shop's own rules (prices, shipping, discounts, phrases, languages) that droidcheck checks every answer against (docs/policy.md).",
  };
}
