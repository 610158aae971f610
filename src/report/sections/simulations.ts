/**
 * The conversations of failed `simulate:` scenarios (the model played the customer,
 * runner/simulate.ts), each customer line with the droid's answer and its latency, so a failure
 * can be read as the conversation it was. Passed conversations stay in report.json (and in the
 * HTML report's scenario list as a chat, html-chat.ts), and what the simulator model cost. No
 * fields of its own: it shows the `simulation` of the scenario entries.
 */
import { formatCount, formatMs } from '../../units.js';
import { defineSection } from '../section.js';
import { plural, span, type SectionView, type Text, type ViewTable } from '../view.js';
import type { ScenarioEntry } from './scenarios.js';

/** Conversations shown at most; the rest are in report.json. */
const MAX_CONVERSATIONS = 10;

/** One line per message, as the transcript writes it (a multi-paragraph answer would break the table). */
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

function conversationTable(s: ScenarioEntry): ViewTable {
  const sim = s.simulation!;
  const rows = sim.turns.flatMap((t): Text[][] => [
    ['customer', oneLine(t.customer), ''],
    ['droid', oneLine(t.droid), formatMs(t.latencyMs)],
  ]);
  return {
    caption: `${s.suite} › ${s.name} [${s.mode}]: ${plural(sim.turns.length, 'customer line')}, ended ${sim.end}`,
    columns: [{ header: 'who' }, { header: 'said', align: 'l' }, { header: 'latency' }],
    rows,
  };
}

type Doc = { scenarios: ScenarioEntry[] };

/**
 * What the simulated customers cost, beside the judge's usage (its own section): conversations,
 * the simulator model's calls, lines replayed from the cache, tokens. Summed over the scenario
 * entries, so a merged report's figures are those of every shard. Reports written before tokens
 * were kept count their calls only.
 */
function usageView(sims: readonly NonNullable<ScenarioEntry['simulation']>[]): SectionView {
  const sum = (f: (s: (typeof sims)[number]) => number | undefined): number =>
    sims.reduce((n, s) => n + (f(s) ?? 0), 0);
  const calls = sum((s) => s.modelCalls);
  const cached = sum((s) => s.cacheHits);
  const prompt = sum((s) => s.promptTokens);
  const completion = sum((s) => s.completionTokens);
  const tokens = `${formatCount(prompt + completion)} tokens (${formatCount(prompt)} prompt, ${formatCount(completion)} completion)`;
  return {
    id: 'simulator',
    title: 'Simulated customers',
    summary: `${plural(sims.length, 'conversation')} · ${plural(calls, 'model call')} (${plural(cached, 'line')} from the cache), ${tokens}`,
  };
}

export const simulationsSection = defineSection({
  name: 'simulations',
  fields: {},
  compute: () => ({}),
  merge: () => ({}),
  views: (d: Doc): SectionView[] => {
    const sims = d.scenarios.flatMap((s) => (s.simulation ? [s.simulation] : []));
    if (sims.length === 0) return [];
    const failed = d.scenarios.filter((s) => s.simulation && !s.passed && s.outcome !== 'not-sent');
    if (failed.length === 0) return [usageView(sims)];
    return [
      usageView(sims),
      {
        id: 'simulations',
        title: 'Simulated conversations that failed',
        tone: 'fail',
        summary: plural(failed.length, 'conversation'),
        tables: failed.slice(0, MAX_CONVERSATIONS).map(conversationTable),
        notes:
          failed.length > MAX_CONVERSATIONS
            ? [span(`… ${failed.length - MAX_CONVERSATIONS} more in report.json`, 'muted')]
            : [],
      },
    ];
  },
});
