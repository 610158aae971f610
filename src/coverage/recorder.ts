/**
 * `CoverageRecorder`: what one job covered, counted as it sends and as answers come
 * (runner/turn-checks.ts calls it for every customer turn and every answer; the pipeline hands it
 * every ended request for the endpoints), against the shop it tests (docs/coverage.md):
 *
 * - products: the shop's catalogue (the policy's, or the embedded emulator's demo shop when no
 *   policy file is read), matched by name and alias (products.ts) in the customer's messages
 *   (asked), in the answers' texts (quoted) and in their cart lines (in a cart, at which counts);
 * - intents: those the answers report, against the policy's `intents:` when it declares them;
 * - the funnel: per conversation, the stages of a sale it reached (answer-facts.ts);
 * - the rules: each rule's verdicts on the answers (held, broken, undecided with why, not
 *   applicable), when a policy judged them;
 * - the service: which endpoints were called and answered, and the answer modes.
 *
 * Memory is bounded by the catalogue, the intents, the distinct conversations (a scenario's
 * repeats and modes are one) and {@link MAX_INTENTS}: a load run of millions of requests keeps
 * counts, not requests.
 */
import { createHash } from 'node:crypto';
import { POLICY_RULES, readAnswer, type Policy, type RuleOutcome } from '../policy/index.js';
import { FUNNEL_STAGES } from '../metrics/index.js';
import { intentsOf, saleFacts } from './answer-facts.js';
import { funnelFigures, intentsFigures, productsFigures, ruleStatus, rulesFigures, serviceFigures } from './figures.js';
import { ProductIndex } from './products.js';
import {
  MAX_QUANTITIES,
  type CoverageShares,
  type CoverageSnapshot,
  type FunnelStage,
  type IntentCoverage,
  type RuleCoverage,
} from './types.js';

/** Distinct intent names counted at most (a droid that reports free text would otherwise grow without bound); the rest are left out. */
const MAX_INTENTS = 200;

/** An ended request as coverage reads it (the runner's RequestRecord fits): its answer mode, outcome, steps and bursts. */
export interface EndedRequest {
  mode: 'sync' | 'async';
  outcome: string;
  steps?: readonly { index?: number; endpoint: string; outcome: string; kind: string }[] | undefined;
  /** Its `burst` steps' messages (by step index), each a call of the step's answer endpoint and an answer turn. */
  bursts?: readonly { step: number; messages: readonly { outcome: string }[] }[] | undefined;
}

/** The answer endpoint of each mode (spec 8 and 9). */
const ANSWER_ENDPOINT = { sync: 'get-droid-answer', async: 'get-droid-answer-async' } as const;

/** Outcomes of a request that was never sent (its endpoint was not called). */
const UNSENT = new Set(['not-sent']);

const bit = (stage: FunnelStage): number => 1 << FUNNEL_STAGES.indexOf(stage);

interface Conversation {
  suite: string;
  /** FUNNEL_STAGES as bits. */
  reached: number;
}

interface ProductCounts {
  asked: number;
  quoted: number;
  inCart: number;
  quantities: Set<number>;
}

export interface CoverageRecorderOptions {
  /** The shop: its catalogue, declared intents and rules (a policy file, or the embedded emulator's demo shop as one). */
  shop?: Policy | undefined;
  /** A policy judges every answer: its rules' verdicts come with the answers (`answered`). */
  rules?: boolean;
}

export class CoverageRecorder {
  readonly #shop: Policy | undefined;
  readonly #products: ProductIndex | undefined;
  readonly #counts: ProductCounts[];
  #unmatchedLines = 0;
  #intentAnswers = 0;
  readonly #intents = new Map<string, number>();
  readonly #declared: readonly string[];
  readonly #conversations = new Map<string, Conversation>();
  readonly #rules: Map<string, Omit<RuleCoverage, 'status' | 'rule'>> | undefined;
  readonly #calls = new Map<string, { calls: number; answered: number }>();
  readonly #modes = { sync: 0, async: 0 };
  /** Requests that ended after being sent: no share is told before the first one. */
  #sent = 0;

  constructor(opts: CoverageRecorderOptions = {}) {
    this.#shop = opts.shop;
    const catalogue = opts.shop?.catalogue ?? [];
    this.#products = catalogue.length > 0 && opts.shop ? new ProductIndex(opts.shop) : undefined;
    this.#counts = catalogue.map(() => ({ asked: 0, quoted: 0, inCart: 0, quantities: new Set<number>() }));
    this.#declared = opts.shop?.intents ?? [];
    const shop = opts.shop;
    this.#rules =
      opts.rules && shop
        ? new Map(
            POLICY_RULES.filter((r) => r.applies(shop)).map((r) => [
              r.id,
              { held: 0, broken: 0, undecided: 0, notApplicable: 0, reasons: {} },
            ]),
          )
        : undefined;
  }

  #conversation(key: string, suite: string): Conversation {
    let c = this.#conversations.get(key);
    if (!c) this.#conversations.set(key, (c = { suite, reached: 0 }));
    return c;
  }

  /** A request is about to be sent: its conversation (a stable key), its suite and its customer's messages so far, this one's included. */
  sent(conversation: string, suite: string, humanTexts: readonly string[]): void {
    const c = this.#conversation(conversation, suite);
    if (!this.#products) return;
    const asked = new Set<number>();
    for (const text of humanTexts) for (const i of this.#products.inText(text)) asked.add(i);
    for (const i of asked) this.#counts[i]!.asked++;
    if (asked.size > 0) c.reached |= bit('product');
  }

  /** An answer (or a `send` step's reply) of `conversation`, with the policy's verdicts on it when one judged it. */
  answered(
    conversation: string,
    suite: string,
    humanTexts: readonly string[],
    payload: unknown,
    verdicts?: readonly RuleOutcome[],
  ): void {
    const c = this.#conversation(conversation, suite);
    const view = readAnswer(payload);
    if (this.#products) {
      const quoted = new Set<number>();
      for (const t of view.texts) for (const i of this.#products.inText(t.text)) quoted.add(i);
      for (const i of quoted) this.#counts[i]!.quoted++;
      const carted = new Set<number>();
      for (const line of view.cart?.lines ?? []) {
        const i = this.#products.ofLine(line);
        if (i === undefined) {
          this.#unmatchedLines++;
          continue;
        }
        carted.add(i);
        const n = line.count?.value;
        const q = this.#counts[i]!.quantities;
        if (n !== undefined && Number.isInteger(n) && n > 0 && (q.has(n) || q.size < MAX_QUANTITIES)) q.add(n);
      }
      for (const i of carted) this.#counts[i]!.inCart++;
      if (carted.size > 0) c.reached |= bit('product');
    }
    const facts = saleFacts(payload, humanTexts);
    if (!this.#products && (facts.keywords || facts.cart)) c.reached |= bit('product');
    if (facts.cart) c.reached |= bit('cart');
    if (facts.total) c.reached |= bit('total');
    if (facts.address) c.reached |= bit('address');
    if (facts.contact) c.reached |= bit('contact');
    const intents = intentsOf(payload);
    if (intents) {
      this.#intentAnswers++;
      for (const name of intents)
        if (this.#intents.has(name) || this.#intents.size < MAX_INTENTS)
          this.#intents.set(name, (this.#intents.get(name) ?? 0) + 1);
    }
    for (const v of verdicts ?? []) {
      const r = this.#rules?.get(v.rule);
      if (!r) continue;
      if (v.verdict === 'held') r.held++;
      else if (v.verdict === 'broken') r.broken++;
      else if (v.verdict === 'not-applicable') r.notApplicable++;
      else {
        r.undecided++;
        const why = v.reason ?? 'fields missing';
        r.reasons[why] = (r.reasons[why] ?? 0) + 1;
      }
    }
  }

  /** An ended request: the endpoints it called (its answer endpoint, or each step's: a burst's once per message), and its answer turns by mode. */
  ended(request: EndedRequest): void {
    if (UNSENT.has(request.outcome)) return;
    this.#sent++;
    const call = (endpoint: string, outcome: string): void => {
      const e = this.#calls.get(endpoint) ?? { calls: 0, answered: 0 };
      e.calls++;
      if (outcome === 'answered') e.answered++;
      this.#calls.set(endpoint, e);
    };
    if (!request.steps) {
      call(ANSWER_ENDPOINT[request.mode], request.outcome);
      this.#modes[request.mode]++;
      return;
    }
    for (const step of request.steps) {
      // A burst's messages each called the answer endpoint: one call and one answer turn each.
      const burst = step.kind === 'burst' ? request.bursts?.find((b) => b.step === step.index) : undefined;
      if (burst) {
        for (const m of burst.messages) {
          if (UNSENT.has(m.outcome)) continue;
          call(step.endpoint, m.outcome);
          this.#modes[request.mode]++;
        }
        continue;
      }
      if (UNSENT.has(step.outcome)) continue;
      call(step.endpoint, step.outcome);
      if (step.kind === 'say') this.#modes[request.mode]++;
    }
  }

  /** The coverage so far (docs/coverage.md). */
  snapshot(): CoverageSnapshot {
    const shop = this.#shop;
    const byIntent: IntentCoverage[] = [
      ...this.#declared.map((name) => ({ name, declared: true, answers: this.#answersOf(name) })),
      ...[...this.#intents]
        .filter(([name]) => !this.#isDeclared(name))
        .map(([name, answers]) => ({ name, declared: false, answers })),
    ];
    const entries = [...this.#conversations].map(([key, c]) => ({
      id: createHash('sha256').update(key).digest('base64url').slice(0, 12),
      suite: c.suite,
      reached: FUNNEL_STAGES.filter((s) => (c.reached & bit(s)) !== 0),
    }));
    const rules = this.#rules;
    return {
      ...(shop && { shop: { source: shop.file, currency: shop.currency } }),
      ...(this.#products &&
        shop && {
          products: productsFigures(
            (shop.catalogue ?? []).map((p, i) => {
              const n = this.#counts[i]!;
              return {
                name: p.name,
                price: p.price,
                asked: n.asked,
                quoted: n.quoted,
                inCart: n.inCart,
                quantities: [...n.quantities].sort((a, b) => a - b),
              };
            }),
            this.#unmatchedLines,
          ),
        }),
      intents: intentsFigures(byIntent, this.#intentAnswers),
      funnel: funnelFigures(entries),
      ...(rules &&
        shop && {
          rules: rulesFigures(
            POLICY_RULES.map((r) => {
              const counts = rules.get(r.id) ?? { held: 0, broken: 0, undecided: 0, notApplicable: 0, reasons: {} };
              return {
                rule: r.id,
                ...counts,
                reasons: { ...counts.reasons },
                status: ruleStatus(counts, rules.has(r.id)),
              };
            }),
          ),
        }),
      service: serviceFigures(this.#calls, { ...this.#modes }),
    };
  }

  /**
   * The shares so far, as the thresholds of the same names define them (types.ts CoverageShares),
   * without the snapshot's per-conversation entries: what the live metrics read at each scrape.
   * Empty until a request ended, as a job that sends nothing has no coverage section.
   */
  shares(): CoverageShares {
    if (this.#sent === 0) return {};
    const out: CoverageShares = {};
    const catalogue = this.#shop?.catalogue ?? [];
    if (this.#products && catalogue.length > 0)
      out.products = this.#counts.filter((n) => n.asked > 0 || n.inCart > 0).length / catalogue.length;
    if (this.#declared.length > 0)
      out.intents = this.#declared.filter((d) => this.#answersOf(d) > 0).length / this.#declared.length;
    const rules = this.#rules;
    if (rules && rules.size > 0) {
      let tested = 0;
      for (const r of rules.values()) if (ruleStatus(r, true) === 'tested') tested++;
      out.rules = tested / rules.size;
    }
    const conversations = this.#conversations.size;
    if (conversations > 0) {
      const funnel = Object.fromEntries(FUNNEL_STAGES.map((s) => [s, 0])) as Record<FunnelStage, number>;
      for (const c of this.#conversations.values())
        for (const s of FUNNEL_STAGES) if ((c.reached & bit(s)) !== 0) funnel[s]++;
      for (const s of FUNNEL_STAGES) funnel[s] /= conversations;
      out.funnel = funnel;
    }
    return out;
  }

  /** Declared intents match the answers' names ignoring case (an owner's `Purchase` is the answers' `purchase`). */
  #isDeclared(name: string): boolean {
    return this.#declared.some((d) => d.toLowerCase() === name.toLowerCase());
  }

  #answersOf(declared: string): number {
    let n = 0;
    for (const [name, answers] of this.#intents) if (name.toLowerCase() === declared.toLowerCase()) n += answers;
    return n;
  }
}
