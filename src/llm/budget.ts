/**
 * The budget of a run's model calls (docs/llm.md, Budget): every call of the judge, the
 * embeddings, the simulated customer and the red-team attacker goes through one `ModelBudget`,
 * which counts its tokens and cost (prices.ts) per role and per scenario, and, when
 * `--max-cost` or `--max-tokens` is set, makes no call once the budget is spent.
 *
 * Admission: a call starts only when what is spent, plus what the calls in flight are expected
 * to spend, plus this one, stays within the budget; a call is expected to cost what the calls so
 * far cost on average, and while no call has ended (nothing is known yet) only one is in flight
 * at a time. A call that does not fit waits while others are in flight (their real cost decides)
 * and is refused once none is: it rejects with BudgetError (DROIDCHECK_ERR_BUDGET), the
 * caller's check is then "not judged: budget spent". So the budget is never passed by more than
 * the calls in flight differ from their average, and with calls of equal cost never at all.
 *
 * Without a limit the budget only counts. An observer (src/telemetry's GenAI spans) is told of
 * every call made, with its role, model, tokens and the scope it was made for.
 */
import { AbortedError, BudgetError } from '../errors.js';
import { formatCount } from '../units.js';
import { costOf, priceOf, type ModelPrice } from './prices.js';
import type { ChatMessage, LlmProvider } from './provider.js';
import type { ModelCallScope } from './types.js';

/** Who makes a model call: the judge (judge expectations and oracles), embeddings (similar), the simulated customer, the attacker. */
export type ModelRole = 'judge' | 'embeddings' | 'simulator' | 'attacker';

export type { ModelCallScope } from './types.js';

/** `--max-cost`, `--max-tokens`, `--max-conversation-tokens` and the prices given (`--model-price`). */
export interface ResolvedBudget {
  /** USD, > 0. */
  maxCostUsd?: number;
  /** Input and output tokens of the whole run. */
  maxTokens?: number;
  /** Tokens of one simulated conversation or adaptive attack (llm/simulator.ts, redteam/adaptive.ts). */
  maxConversationTokens?: number;
  prices: readonly ModelPrice[];
}

/** Tokens and cost of some calls. `costUsd` is undefined when a call's model has no price. */
export interface Spend {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | undefined;
}

/** What the report shows (sections/budget.ts): the limits, the totals, per role, per scenario, per model. */
export interface BudgetSnapshot {
  maxCostUsd?: number;
  maxTokens?: number;
  maxConversationTokens?: number;
  total: Spend;
  byRole: Partial<Record<ModelRole, Spend>>;
  byScenario: Record<string, Spend>;
  /** The prices the cost was counted in (models used only). */
  prices: ModelPrice[];
  /** Calls refused because the budget was spent. */
  refused: number;
  /** The budget was spent (a call was refused, or the spend reached a limit). */
  spent: boolean;
}

/** One call as the observer sees it. */
export interface ModelCallInfo {
  role: ModelRole;
  operation: 'chat' | 'embeddings';
  model: string;
  scope: ModelCallScope | undefined;
}

/** src/telemetry's GenAI spans: told when a call starts and how it ended. */
export interface ModelCallObserver {
  started(call: ModelCallInfo): {
    ended(tokens: { input: number; output: number } | undefined, errorCode?: string): void;
  };
}

const EPSILON = 1e-9;

const zeroSpend = (): Spend => ({ calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });

function add(s: Spend, input: number, output: number, cost: number | undefined): void {
  s.calls += 1;
  s.inputTokens += input;
  s.outputTokens += output;
  s.costUsd = s.costUsd === undefined || cost === undefined ? undefined : s.costUsd + cost;
}

export class ModelBudget {
  readonly #limits: ResolvedBudget;
  #observer: ModelCallObserver | undefined;
  readonly #total = zeroSpend();
  readonly #byRole = new Map<ModelRole, Spend>();
  readonly #byScenario = new Map<string, Spend>();
  readonly #used = new Map<string, ModelPrice | undefined>();
  #inFlight = 0;
  #reservedCost = 0;
  #reservedTokens = 0;
  #refused = 0;
  #waiters: (() => void)[] = [];

  constructor(limits: ResolvedBudget, observer?: ModelCallObserver) {
    this.#limits = limits;
    this.#observer = observer;
  }

  /** Adds the observer of every call from now on (src/telemetry, once it is loaded). */
  observe(observer: ModelCallObserver): void {
    this.#observer = observer;
  }

  /** True when a limit is set (calls may be refused). */
  get limited(): boolean {
    return this.#limits.maxCostUsd !== undefined || this.#limits.maxTokens !== undefined;
  }

  /** The per-conversation token limit of simulated customers and adaptive attacks, when set. */
  get conversationTokens(): number | undefined {
    return this.#limits.maxConversationTokens;
  }

  /** The price `model` is counted in (the user's, else the built-in table's). */
  priceOf(model: string): ModelPrice | undefined {
    return priceOf(model, this.#limits.prices);
  }

  /** What a call is expected to cost and use: the average so far (undefined before any call ended). */
  #expected(): { cost: number; tokens: number } | undefined {
    const n = this.#total.calls;
    if (n === 0) return undefined;
    return { cost: (this.#total.costUsd ?? 0) / n, tokens: (this.#total.inputTokens + this.#total.outputTokens) / n };
  }

  /** A sentence saying why no call may start now; undefined when one may. `wait`: one may once those in flight end. */
  #refusal(): { reason: string; wait: boolean } | undefined {
    const { maxCostUsd, maxTokens } = this.#limits;
    const cost = this.#total.costUsd ?? 0;
    const tokens = this.#total.inputTokens + this.#total.outputTokens;
    if (maxCostUsd !== undefined && cost >= maxCostUsd - EPSILON)
      return { reason: `$${cost.toFixed(4)} of --max-cost $${maxCostUsd} spent`, wait: false };
    if (maxTokens !== undefined && tokens >= maxTokens)
      return { reason: `${formatCount(tokens)} of --max-tokens ${formatCount(maxTokens)} tokens used`, wait: false };
    const next = this.#expected();
    if (next === undefined) return this.#inFlight > 0 ? { reason: '', wait: true } : undefined;
    const overCost = maxCostUsd !== undefined && cost + this.#reservedCost + next.cost > maxCostUsd + EPSILON;
    const overTokens = maxTokens !== undefined && tokens + this.#reservedTokens + next.tokens > maxTokens;
    if (!overCost && !overTokens) return undefined;
    if (this.#inFlight > 0) return { reason: '', wait: true };
    return {
      reason: overCost
        ? `$${(maxCostUsd! - cost).toFixed(4)} left of --max-cost $${maxCostUsd}, a call costs about $${next.cost.toFixed(4)}`
        : `${formatCount(maxTokens! - tokens)} tokens left of --max-tokens ${formatCount(maxTokens!)}, a call uses about ${formatCount(Math.round(next.tokens))}`,
      wait: false,
    };
  }

  /** Waits until a call may start, then reserves its expected spend; throws BudgetError once the budget is spent. */
  async #admit(signal: AbortSignal | undefined): Promise<{ cost: number; tokens: number }> {
    if (!this.limited) {
      this.#inFlight += 1;
      return { cost: 0, tokens: 0 };
    }
    for (;;) {
      const no = this.#refusal();
      if (no === undefined) break;
      if (!no.wait) {
        this.#refused += 1;
        throw new BudgetError(`not judged: budget spent (${no.reason})`);
      }
      if (signal?.aborted) throw new AbortedError('model call: interrupted while waiting for the budget');
      await new Promise<void>((resolve) => {
        const onAbort = (): void => resolve();
        this.#waiters.push(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    const r = this.#expected() ?? { cost: 0, tokens: 0 };
    this.#inFlight += 1;
    this.#reservedCost += r.cost;
    this.#reservedTokens += r.tokens;
    return r;
  }

  #release(r: { cost: number; tokens: number }): void {
    this.#inFlight -= 1;
    this.#reservedCost -= r.cost;
    this.#reservedTokens -= r.tokens;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }

  #record(role: ModelRole, model: string, scope: ModelCallScope | undefined, input: number, output: number): void {
    const price = this.priceOf(model);
    this.#used.set(model, price);
    const cost = price ? costOf(price, input, output) : undefined;
    add(this.#total, input, output, cost);
    let r = this.#byRole.get(role);
    if (!r) this.#byRole.set(role, (r = zeroSpend()));
    add(r, input, output, cost);
    const name = scope?.scenario;
    if (name !== undefined) {
      let s = this.#byScenario.get(name);
      if (!s) this.#byScenario.set(name, (s = zeroSpend()));
      add(s, input, output, cost);
    }
  }

  /** One metered call: admitted, observed, counted (see module docs). */
  async #call<A extends { promptTokens: number }>(
    info: ModelCallInfo,
    signal: AbortSignal | undefined,
    make: () => Promise<A>,
    outputOf: (a: A) => number,
  ): Promise<A> {
    const reserved = await this.#admit(signal);
    const span = this.#observer?.started(info);
    try {
      const answer = await make();
      const output = outputOf(answer);
      this.#record(info.role, info.model, info.scope, answer.promptTokens, output);
      span?.ended({ input: answer.promptTokens, output });
      return answer;
    } catch (err) {
      span?.ended(undefined, (err as { code?: string }).code ?? 'error');
      throw err;
    } finally {
      this.#release(reserved);
    }
  }

  /** `provider` with every call of `role` going through this budget. */
  meter(provider: LlmProvider, role: ModelRole): LlmProvider {
    return {
      chat: (model: string, messages: ChatMessage[], signal?: AbortSignal, scope?: ModelCallScope) =>
        this.#call(
          { role, operation: 'chat', model, scope },
          signal,
          () => provider.chat(model, messages, signal, scope),
          (a) => a.completionTokens,
        ),
      embed: (model: string, inputs: string[], signal?: AbortSignal, scope?: ModelCallScope) =>
        this.#call(
          { role: role === 'judge' ? 'embeddings' : role, operation: 'embeddings', model, scope },
          signal,
          () => provider.embed(model, inputs, signal, scope),
          () => 0,
        ),
      close: () => provider.close(),
    };
  }

  /** The spend so far (see BudgetSnapshot). */
  snapshot(): BudgetSnapshot {
    const { maxCostUsd, maxTokens, maxConversationTokens } = this.#limits;
    const cost = this.#total.costUsd ?? 0;
    const tokens = this.#total.inputTokens + this.#total.outputTokens;
    return {
      ...(maxCostUsd !== undefined && { maxCostUsd }),
      ...(maxTokens !== undefined && { maxTokens }),
      ...(maxConversationTokens !== undefined && { maxConversationTokens }),
      total: { ...this.#total },
      byRole: Object.fromEntries([...this.#byRole].map(([k, v]) => [k, { ...v }])),
      byScenario: Object.fromEntries([...this.#byScenario].map(([k, v]) => [k, { ...v }])),
      prices: [...this.#used].flatMap(([, p]) => (p ? [p] : [])),
      refused: this.#refused,
      spent:
        this.#refused > 0 ||
        (maxCostUsd !== undefined && cost >= maxCostUsd - EPSILON) ||
        (maxTokens !== undefined && tokens >= maxTokens),
    };
  }
}
