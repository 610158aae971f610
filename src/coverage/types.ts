/**
 * The shapes of what a job covered (the report's `coverage` section, docs/coverage.md). Counts
 * are of requests, answers or conversations as each field says; a share is covered / total,
 * 0..1, null when there was nothing to cover.
 */
import type { FunnelStage } from '../metrics/index.js';

export type { FunnelStage } from '../metrics/index.js';

/** One product of the shop's catalogue and how far the job took it. */
export interface ProductCoverage {
  name: string;
  /** The list price of one unit, in the shop's currency. */
  price: number;
  /** Requests whose customer messages (the new one and the history sent with it) name it. */
  asked: number;
  /** Answers whose text names it. */
  quoted: number;
  /** Answers whose cart holds a line of it. */
  inCart: number;
  /** The counts of its cart lines, ascending, each once (at most {@link MAX_QUANTITIES}). */
  quantities: number[];
}

/** At most this many distinct quantities are kept per product. */
export const MAX_QUANTITIES = 20;

/** The catalogue: covered = asked about by a customer or in a cart. */
export interface ProductsCoverage {
  total: number;
  covered: number;
  share: number | null;
  /** Names of the products never asked about nor in a cart, in catalogue order. */
  uncovered: string[];
  /** Products that reached a cart. */
  inCart: number;
  /** Cart lines that named no product of the catalogue, or none droidcheck could read. */
  unmatchedLines: number;
  byProduct: ProductCoverage[];
}

/** One intent: declared by the policy, seen in answers, or both. */
export interface IntentCoverage {
  name: string;
  /** Listed in the policy's `intents:`. */
  declared: boolean;
  /** Answers that reported it. */
  answers: number;
}

/** Covered of a list of names: the policy's declared intents, the rules it switches on. */
export interface NamedShare {
  total: number;
  covered: number;
  share: number | null;
  uncovered: string[];
}

export interface IntentsCoverage {
  /** Answers that reported an intents list (maybe empty). */
  answers: number;
  /** Declared intents (policy order) first, then those seen and not declared (most answers first). */
  byIntent: IntentCoverage[];
  /** The policy's declared intents seen in at least one answer; absent when it declares none. */
  declared?: NamedShare;
}

export type StageCounts = Record<FunnelStage, number>;

/** A conversation (a scenario's customer, a simulated customer, a red-team attack) and the stages it reached. */
export interface FunnelEntry {
  /** A short hash of the conversation's key (its file, scenario and first customer message): merged reports count each once. */
  id: string;
  suite: string;
  reached: FunnelStage[];
}

export interface FunnelCoverage {
  conversations: number;
  /** Conversations that reached each stage. */
  stages: StageCounts;
  bySuite: { suite: string; conversations: number; stages: StageCounts }[];
  entries: FunnelEntry[];
}

/** `tested`: decided (held or broken) on at least one answer; `untested`: on but never decided; `off`: the policy does not switch it on. */
type RuleStatus = 'tested' | 'untested' | 'off';

/** One rule of the policy and what it made of the job's answers. */
export interface RuleCoverage {
  rule: string;
  status: RuleStatus;
  held: number;
  broken: number;
  undecided: number;
  notApplicable: number;
  /** Why it could not decide, with how many answers each. */
  reasons: Record<string, number>;
}

export interface RulesCoverage extends NamedShare {
  byRule: RuleCoverage[];
}

/** One endpoint of the ten: calls sent, and calls that got their answer. */
export interface EndpointCoverage {
  endpoint: string;
  calls: number;
  answered: number;
}

export interface ServiceCoverage {
  /** Every endpoint of the specification, 0 when never called. */
  endpoints: EndpointCoverage[];
  /** Endpoints with at least one call answered. */
  exercised: number;
  /** The others, by name. */
  unexercised: string[];
  /** Answer turns sent per answer mode. */
  modes: { sync: number; async: number };
  /** `redteam` only: the categories that ran, were skipped, or were not asked for. */
  redteam?: { ran: string[]; skipped: string[]; notRun: string[] };
}

/** Where the shop's catalogue and intents came from: the policy file, or the embedded emulator's demo shop. */
interface CoverageShop {
  source: string;
  currency: string;
}

export interface CoverageSnapshot {
  /** Absent when the job had no shop to count against (no policy, a real target). */
  shop?: CoverageShop;
  /** Absent without a catalogue. */
  products?: ProductsCoverage;
  intents: IntentsCoverage;
  funnel: FunnelCoverage;
  /** Absent when no policy judged the answers. */
  rules?: RulesCoverage;
  service: ServiceCoverage;
}

/**
 * The shares the live metrics read while a job runs (docs/coverage.md, "While it runs"): each
 * 0..1 and what the threshold of the same name judges (`coverage.products`, `coverage.intents`,
 * `coverage.rules`, `coverage.funnel.<stage>`); a share is absent when there is nothing to count
 * against (no catalogue, no declared intents, no policy, no conversation yet).
 */
export interface CoverageShares {
  products?: number;
  intents?: number;
  rules?: number;
  /** Conversations that reached each stage, of the conversations so far. */
  funnel?: Record<FunnelStage, number>;
}
