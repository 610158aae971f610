/**
 * The customer's preferred payment method, for the intent webhook's `payment_method`
 * (docs intent-webhook.mdx: bank_transfer | cash_on_delivery | credit_card | other).
 */
import type { PAYMENT_METHODS } from '../../contract/index.js';

export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

const RULES: [PaymentMethod, RegExp][] = [
  ['cash_on_delivery', /\b(cash on delivery|cod|pay (?:on|at) delivery)\b|เก็บเงินปลายทาง|ปลายทาง/i],
  ['bank_transfer', /\b(bank transfer|transfer|promptpay|prompt pay)\b|โอน|พร้อมเพย์/i],
  ['credit_card', /\b(credit card|debit card|card|visa|mastercard)\b|บัตรเครดิต|บัตร/i],
];

/** The first method named in the message, then in the human turns (latest first); `other` when none. */
export function detectPaymentMethod(message: string, humanTurns: readonly string[] = []): PaymentMethod {
  for (const text of [message, ...[...humanTurns].reverse()]) {
    for (const [method, pattern] of RULES) if (pattern.test(text)) return method;
  }
  return 'other';
}
