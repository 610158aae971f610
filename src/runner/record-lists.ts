/**
 * The lists of a plain scenario's record (`failures`, `contractViolations`) while it is pending:
 * one shared, frozen empty array each instead of two per record, 64 B less per pending request
 * (a load holds tens of thousands: test/runner/pending-memory.test.ts). Most requests end with
 * both empty. The first violation replaces the shared list (addViolation); judging assigns
 * `failures` a list of its own (answer-turn.ts). A push on a shared list throws (frozen), so a
 * code path that forgets this fails its tests instead of writing into every record.
 * Records of steps and simulated conversations, which push into their lists, get their own.
 */
import type { ContractViolationRecord, RequestRecord } from './types.js';

export const NO_FAILURES: RequestRecord['failures'] = Object.freeze([]) as unknown as RequestRecord['failures'];
export const NO_VIOLATIONS: ContractViolationRecord[] = Object.freeze([]) as unknown as ContractViolationRecord[];

/** Adds `v` to `record`'s contract violations (a list of its own on the first one). */
export function addViolation(record: RequestRecord, v: ContractViolationRecord): void {
  if (record.contractViolations === NO_VIOLATIONS) record.contractViolations = [v];
  else record.contractViolations.push(v);
}
