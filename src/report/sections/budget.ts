/**
 * `budget`: what the run's model calls cost (docs/llm.md, Budget): the limits (`--max-cost`,
 * `--max-tokens`, `--max-conversation-tokens`), the calls, tokens and cost in total, per role
 * (judge, embeddings, simulator, attacker) and per scenario, the prices they were counted in
 * (with each built-in price's source and date), and whether the budget was spent (checks left
 * "not judged: budget spent"). Present when a model was called or a limit was set. Shards
 * merge by adding the spend; the limits are each shard's.
 */
import { z } from 'zod';
import { formatCount } from '../../units.js';
import { defineSection } from '../section.js';
import { span, type SectionView, type Text, type ViewTable } from '../view.js';
import { count, obj } from './common.js';

const usd = z.number().nonnegative().describe('US dollars');
const spendSchema = obj({
  calls: count,
  inputTokens: count,
  outputTokens: count,
  costUsd: usd.optional().describe('US dollars; absent when a model called has no price'),
});
const priceSchema = obj({
  model: z.string(),
  inputPerMTok: usd.describe('US dollars per million input tokens'),
  outputPerMTok: usd.describe('US dollars per million output tokens'),
  source: z.string().optional().describe("where a built-in price was read; absent: the user's --model-price"),
  date: z.string().optional().describe('when it was read there, YYYY-MM-DD'),
});
const roleEnum = z.enum(['judge', 'embeddings', 'simulator', 'attacker']);
const budgetSchema = obj({
  maxCostUsd: usd.optional().describe('--max-cost'),
  maxTokens: count.optional().describe('--max-tokens'),
  maxConversationTokens: count.optional().describe('--max-conversation-tokens'),
  total: spendSchema,
  byRole: z.partialRecord(roleEnum, spendSchema),
  byScenario: z.record(z.string(), spendSchema).describe('suite › scenario -> its model calls'),
  prices: z.array(priceSchema),
  refused: count.describe('model calls not made because the budget was spent'),
  spent: z.boolean().describe('the budget was spent: what was left is "not judged: budget spent"'),
}).describe('the model calls of the run: limits, spend per role and per scenario, prices');
export type BudgetSection = z.output<typeof budgetSchema>;

type StoredSpend = z.output<typeof spendSchema>;
type ModelPrice = z.output<typeof priceSchema>;

/** `$0.0123` (four decimals: a judge call costs a fraction of a cent); `-` when unknown. */
const formatUsd = (x: number | undefined): string => (x === undefined ? '-' : `$${x.toFixed(4)}`);

function addSpend(a: StoredSpend | undefined, b: StoredSpend): StoredSpend {
  if (!a) return { ...b };
  const cost = a.costUsd === undefined || b.costUsd === undefined ? undefined : a.costUsd + b.costUsd;
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...(cost !== undefined && { costUsd: cost }),
  };
}

function spendRow(name: string, s: StoredSpend): Text[] {
  return [name, formatCount(s.calls), formatCount(s.inputTokens), formatCount(s.outputTokens), formatUsd(s.costUsd)];
}

const SPEND_COLUMNS = [
  { header: '' },
  { header: 'calls' },
  { header: 'input', unit: 'tokens' },
  { header: 'output', unit: 'tokens' },
  { header: 'cost', unit: 'USD' },
];

/** One line: `12 model calls, 4,512 tokens, $0.0031 of --max-cost $0.01`. */
function summaryOf(b: BudgetSection): Text {
  const t = b.total;
  const limit = [
    ...(b.maxCostUsd !== undefined ? [`--max-cost $${b.maxCostUsd}`] : []),
    ...(b.maxTokens !== undefined ? [`--max-tokens ${formatCount(b.maxTokens)}`] : []),
  ];
  const line = `${formatCount(t.calls)} model calls, ${formatCount(t.inputTokens + t.outputTokens)} tokens, ${formatUsd(t.costUsd)}${limit.length > 0 ? ` of ${limit.join(' and ')}` : ''}`;
  return b.spent
    ? [line, ' · ', span(`budget spent: ${formatCount(b.refused)} calls not made, checks left not judged`, 'warn')]
    : line;
}

export const budgetReportSection = defineSection({
  name: 'budget',
  fields: { budget: budgetSchema.optional() },
  merge: (docs) => {
    const list = docs.flatMap((d) => (d.budget ? [d.budget] : []));
    const first = list[0];
    if (!first) return {};
    const byRole: BudgetSection['byRole'] = {};
    const byScenario: BudgetSection['byScenario'] = {};
    let total: StoredSpend | undefined;
    const prices = new Map<string, ModelPrice>();
    for (const b of list) {
      total = addSpend(total, b.total);
      for (const [k, v] of Object.entries(b.byRole) as [keyof BudgetSection['byRole'], StoredSpend][])
        byRole[k] = addSpend(byRole[k], v);
      for (const [k, v] of Object.entries(b.byScenario)) byScenario[k] = addSpend(byScenario[k], v);
      for (const p of b.prices) prices.set(p.model, p);
    }
    return {
      budget: {
        ...(first.maxCostUsd !== undefined && { maxCostUsd: first.maxCostUsd }),
        ...(first.maxTokens !== undefined && { maxTokens: first.maxTokens }),
        ...(first.maxConversationTokens !== undefined && { maxConversationTokens: first.maxConversationTokens }),
        total: total!,
        byRole,
        byScenario,
        prices: [...prices.values()],
        refused: list.reduce((n, b) => n + b.refused, 0),
        spent: list.some((b) => b.spent),
      },
    };
  },
  views: (d) => {
    const b = d.budget;
    if (!b) return [];
    const tables: ViewTable[] = [
      {
        caption: 'by role',
        columns: SPEND_COLUMNS,
        rows: Object.entries(b.byRole).map(([k, v]) => spendRow(k, v)),
      },
    ];
    const scenarios = Object.entries(b.byScenario).sort((x, y) => (y[1].costUsd ?? 0) - (x[1].costUsd ?? 0));
    if (scenarios.length > 0)
      tables.push({
        caption: 'by scenario',
        columns: SPEND_COLUMNS,
        rows: scenarios.slice(0, 20).map(([k, v]) => spendRow(k, v)),
        ...(scenarios.length > 20 && { more: `… ${scenarios.length - 20} more in report.json` }),
      });
    if (b.prices.length > 0)
      tables.push({
        caption: 'prices',
        columns: [
          { header: 'model' },
          { header: 'input', unit: 'USD per 1M tokens' },
          { header: 'output', unit: 'USD per 1M tokens' },
          { header: 'source', align: 'l' },
        ],
        rows: b.prices.map((p) => [
          p.model,
          String(p.inputPerMTok),
          String(p.outputPerMTok),
          p.source ? `${p.source}, ${p.date ?? ''}` : '--model-price',
        ]),
      });
    const view: SectionView = { id: 'budget', title: 'Model calls', summary: summaryOf(b), tables };
    return [view];
  },
  brief: (d) => (d.budget ? [{ id: 'budget', title: 'Model calls', summary: summaryOf(d.budget) }] : []),
});
