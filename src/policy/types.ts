/**
 * The shapes every rule shares: the loaded policy, what a rule is given and what it finds.
 */
import type { SourceLocation } from '../errors.js';
import type { AnswerView } from './answer.js';
import type { CustomerRegistry } from './customers.js';
import type { PolicyData } from './schema.js';

/** A loaded policy: the file's data (amounts as numbers, percents as shares) and where its keys are. */
export interface Policy extends PolicyData {
  /** The policy file (as given). */
  file: string;
  /** file:line:col of each top-level key present (the evidence of a finding points at its rule). */
  locations: Readonly<Partial<Record<keyof PolicyData, SourceLocation>>>;
}

/** What a rule knows of the answer besides its payload. */
export interface CheckContext {
  /** The answer turn in its conversation, 1-based (the human messages before it + 1). Default 1. */
  turn?: number;
  /** The request's requestId, for the evidence. */
  requestId?: string;
  /** Who the conversation is (other-customer-data): a key the run gives each conversation. */
  conversation?: string;
  /** The human messages of this conversation so far, this answer's included (other-customer-data). */
  humanTexts?: readonly string[];
  /** What every conversation of the run gave (other-customer-data); absent: that rule is undecided. */
  customers?: CustomerRegistry;
}

/** One violation as a rule words it: where in the answer, what the policy wanted, what came. */
export interface RuleFinding {
  /** Dotted path in the answer payload: `shoppingCart.products[0].price`, `answer`, `responses[1].kwargs.content`. */
  field: string;
  expected: string;
  got: string;
  /** One sentence. */
  message: string;
  /**
   * What the finding is about, the same in every answer with the defect (defects.ts): a cart
   * line's product. Absent: the field without its positions.
   */
  subject?: string;
  /**
   * What stands for `got` in the defect when `got` differs from answer to answer for one defect
   * (a forbidden phrase: the phrase, not the text around it). Absent: `got`.
   */
  same?: string;
}

/**
 * What one rule made of one answer: its findings (none: it held), or undecided (the fields it
 * needs are missing), or not applicable (the answer holds nothing it judges: no cart, no text).
 */
export interface RuleResult {
  findings: RuleFinding[];
  /** Why the rule could not decide (`a cart line without a unit price`); never together with findings of the same check. */
  undecided?: string;
  /** The answer holds nothing the rule judges (no cart lines, no text): neither held nor undecided. */
  notApplicable?: true;
}

/** A rule's result when the answer holds nothing it judges. */
export const notApplicable = (): RuleResult => ({ findings: [], notApplicable: true });

/** A rule's result when the fields it needs are missing: `why`, e.g. `a cart line without a unit price`. */
export const undecided = (why: string): RuleResult => ({ findings: [], undecided: why });

/** What a rule made of one answer, as the run counts it (coverage of the rules, docs/coverage.md). */
export type RuleVerdict = 'held' | 'broken' | 'undecided' | 'not-applicable';

/** A policy rule: its stable id, the policy key it reads, where the rule comes from, and its check. */
export interface PolicyRule<Id extends string = string> {
  readonly id: Id;
  /** The policy file's key the rule reads (its location is the finding's, unless `limit` says `answer`). */
  readonly key: keyof PolicyData;
  /**
   * Where the limit a finding breaks is written: `policy` (default), the line of `key` in the
   * policy file; `answer`, nowhere in the policy (the specification's own arithmetic, say): the
   * finding points at the scenario turn that got the answer instead.
   */
  readonly limit?: 'policy' | 'answer';
  /** Why the rule holds: the specification's section or the service's documentation page (docs/policy.md). */
  readonly source: string;
  /** Whether the policy sets what the rule needs (else the rule is off, neither passed nor undecided). */
  applies(policy: Policy): boolean;
  check(policy: Policy, answer: AnswerView, ctx: CheckContext): RuleResult;
}

/** A violation with its evidence, as reports show it. */
export interface PolicyFinding extends RuleFinding {
  rule: string;
  /** The answer turn in its conversation, 1-based. */
  turn: number;
  requestId?: string;
}
