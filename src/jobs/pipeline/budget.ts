/**
 * The budget of a job's model calls, before and after (docs/llm.md, Budget): before sending,
 * the estimate of the calls the plan makes at most and what they cost at the prices
 * (llm/prices.ts), said on one line with whether it exceeds `--max-cost` / `--max-tokens`;
 * after, the spend the report shows (report/sections/budget.ts).
 *
 * The plan's calls come from the job's spec (job-spec.ts `modelCalls`: the red team's, from its
 * attempts x turns x calls per turn) or, for a job that grades the suites' expectations, from the
 * suites (`suiteModelCalls`): per planned request (scenario x mode x repeat), one judge call per
 * `judge` expectation (three on a close call: a range), one embedding call per `similar`
 * expectation, and `maxTurns` simulated customer lines. The cache may answer many of them (then
 * no call is made). Tokens per call are a typical call's (TYPICAL_TOKENS): the prompt's own length
 * decides the real figure, so the cost is said as "about".
 */
import type { BudgetSnapshot, ModelBudget, ModelRole, ResolvedLlmConfig, Spend } from '../../llm/index.js';
import type { BudgetSection } from '../../report/index.js';
import { planRequests, type ModeOverride } from '../../runner/index.js';
import type { Expectation, Suite } from '../../scenario/index.js';
import { formatCount } from '../../units.js';

/** Input and output tokens of a typical call of each role (a rubric, an answer and the judge prompt; a short text; a turn of conversation). */
const TYPICAL_TOKENS: Record<ModelRole, { input: number; output: number }> = {
  judge: { input: 700, output: 60 },
  embeddings: { input: 40, output: 0 },
  simulator: { input: 500, output: 40 },
  attacker: { input: 600, output: 60 },
};

/** `judge` and `similar` expectations in `list` (inside `json` ones too). */
function graded(list: readonly Expectation[]): { judge: number; similar: number } {
  let judge = 0;
  let similar = 0;
  for (const e of list) {
    if (e.matcher === 'judge') judge += 1;
    else if (e.matcher === 'similar') similar += 1;
    else if (e.matcher === 'json') {
      const inner = graded(e.expected as Expectation[]);
      judge += inner.judge;
      similar += inner.similar;
    }
  }
  return { judge, similar };
}

/** Calls of one role a plan makes at most, with the model they are made with (undefined: none named). */
export interface PlannedModelCalls {
  role: ModelRole;
  model: string | undefined;
  calls: number;
}

/** Model calls the plan makes at most, per role (the judge's: its lower bound, one vote each). */
export interface ModelCallEstimate {
  calls: Record<ModelRole, number>;
  /** Three votes on every close call. */
  judgeCallsAtMost: number;
  tokens: number;
  /** USD; undefined when a model to call has no price. */
  costUsd: number | undefined;
  /** Models without a price. */
  unpriced: string[];
}

/** The model calls of `suites`' plan (see module docs), per role, with the models `llm` names. */
export function suiteModelCalls(
  suites: readonly Suite[],
  mode: ModeOverride | undefined,
  llm: ResolvedLlmConfig | undefined,
): PlannedModelCalls[] {
  const calls = { judge: 0, embeddings: 0, simulator: 0 };
  for (const planned of planRequests(suites, mode)) {
    const s = planned.scenario;
    const lists = [s.expect, ...(s.steps ?? []).flatMap((step) => [step.expect, step.intentWebhook?.expect ?? []])];
    for (const list of lists) {
      const g = graded(list);
      calls.judge += g.judge;
      calls.embeddings += g.similar;
    }
    if (s.simulate) calls.simulator += s.simulate.maxTurns - (s.simulate.opening !== undefined ? 1 : 0);
  }
  return [
    { role: 'judge', model: llm?.judgeModel, calls: calls.judge },
    { role: 'embeddings', model: llm?.embeddingModel, calls: calls.embeddings },
    { role: 'simulator', model: llm?.simulatorModel ?? llm?.judgeModel, calls: calls.simulator },
  ];
}

/** The estimate of `planned` at `budget`'s prices (see module docs); undefined when it calls no model. */
export function estimateModelCalls(
  planned: readonly PlannedModelCalls[],
  budget: ModelBudget,
): ModelCallEstimate | undefined {
  const calls: Record<ModelRole, number> = { judge: 0, embeddings: 0, simulator: 0, attacker: 0 };
  let tokens = 0;
  let cost: number | undefined = 0;
  const unpriced: string[] = [];
  for (const { role, model, calls: n } of planned) {
    if (n === 0) continue;
    calls[role] += n;
    const t = TYPICAL_TOKENS[role];
    tokens += n * (t.input + t.output);
    const price = model === undefined ? undefined : budget.priceOf(model);
    if (!price) {
      if (model !== undefined && !unpriced.includes(model)) unpriced.push(model);
      cost = undefined;
    } else if (cost !== undefined) cost += (n * (t.input * price.inputPerMTok + t.output * price.outputPerMTok)) / 1e6;
  }
  if (Object.values(calls).every((n) => n === 0)) return undefined;
  return { calls, judgeCallsAtMost: calls.judge * 3, tokens, costUsd: cost, unpriced };
}

/** The line the job prints before sending (see module docs). */
export function estimateLine(e: ModelCallEstimate, budget: { maxCostUsd?: number; maxTokens?: number }): string {
  const parts = (['judge', 'embeddings', 'simulator', 'attacker'] as const)
    .filter((r) => e.calls[r] > 0)
    .map(
      (r) =>
        `${r} ${formatCount(e.calls[r])}${r === 'judge' && e.calls.judge > 0 ? `-${formatCount(e.judgeCallsAtMost)}` : ''}`,
    );
  const cost =
    e.costUsd === undefined
      ? `cost unknown (no price for ${e.unpriced.join(', ')}: --model-price MODEL=IN/OUT)`
      : `about $${e.costUsd.toFixed(4)}`;
  const over: string[] = [];
  if (budget.maxCostUsd !== undefined && e.costUsd !== undefined && e.costUsd > budget.maxCostUsd)
    over.push(`--max-cost $${budget.maxCostUsd}`);
  if (budget.maxTokens !== undefined && e.tokens > budget.maxTokens)
    over.push(`--max-tokens ${formatCount(budget.maxTokens)}`);
  const verdict =
    over.length > 0
      ? `; this exceeds ${over.join(' and ')}: once it is spent no model is called and the checks left are not judged (exit 98)`
      : '';
  return `droidcheck: model calls at most: ${parts.join(', ')} (about ${formatCount(e.tokens)} tokens, ${cost}; the cache answers what it holds)${verdict}`;
}

const stored = (s: Spend): BudgetSection['total'] => {
  const { costUsd, ...rest } = s;
  return costUsd === undefined ? rest : { ...rest, costUsd };
};

/** The report's section of the run's spend (undefined when no model was called and no limit set). */
export function budgetReport(b: BudgetSnapshot): BudgetSection | undefined {
  if (b.total.calls === 0 && b.refused === 0 && b.maxCostUsd === undefined && b.maxTokens === undefined)
    return undefined;
  return {
    ...(b.maxCostUsd !== undefined && { maxCostUsd: b.maxCostUsd }),
    ...(b.maxTokens !== undefined && { maxTokens: b.maxTokens }),
    ...(b.maxConversationTokens !== undefined && { maxConversationTokens: b.maxConversationTokens }),
    total: stored(b.total),
    byRole: Object.fromEntries(Object.entries(b.byRole).map(([k, v]) => [k, stored(v)])),
    byScenario: Object.fromEntries(Object.entries(b.byScenario).map(([k, v]) => [k, stored(v)])),
    prices: b.prices,
    refused: b.refused,
    spent: b.spent,
  };
}
