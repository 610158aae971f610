/**
 * `judge`: the grader of `similar` and `judge` expectations: its settings (never the key) and
 * its usage (calls, tokens, cache hits, judge errors). Shards merge by adding the usage.
 */
import { z } from 'zod';
import { defineSection } from '../section.js';
import { span } from '../view.js';
import { count, obj } from './common.js';

const USAGE_KEYS = [
  'chatCalls',
  'embeddingCalls',
  'httpRequests',
  'promptTokens',
  'completionTokens',
  'totalTokens',
  'cacheHits',
  'judgeErrors',
] as const;
const judgeSchema = obj({
  settings: z.record(z.string(), z.unknown()).describe('the grader settings, without the key'),
  usage: obj(
    Object.fromEntries(USAGE_KEYS.map((k) => [k, count])) as Record<(typeof USAGE_KEYS)[number], typeof count>,
  ),
}).describe('LLM-graded matchers: the grader settings (no key) and its token usage');
export type JudgeSection = z.output<typeof judgeSchema>;

export const judgeSection = defineSection({
  name: 'judge',
  fields: { judge: judgeSchema.optional() },
  merge: (docs) => {
    const list = docs.flatMap((d) => (d.judge ? [d.judge] : []));
    if (!list[0]) return {};
    const usage = Object.fromEntries(
      USAGE_KEYS.map((k) => [k, list.reduce((n, j) => n + j.usage[k], 0)]),
    ) as JudgeSection['usage'];
    return { judge: { settings: list[0].settings, usage } };
  },
  views: (d) => {
    const u = d.judge?.usage;
    if (!u) return [];
    const summary = `${u.chatCalls} chat and ${u.embeddingCalls} embedding calls (${u.httpRequests} HTTP requests), ${u.totalTokens} tokens (${u.promptTokens} prompt, ${u.completionTokens} completion), ${u.cacheHits} cache hits`;
    return [
      {
        id: 'judge',
        title: 'Judge',
        summary: u.judgeErrors > 0 ? [summary, ' · ', span(`${u.judgeErrors} judge errors`, 'warn')] : summary,
      },
    ];
  },
});
