/**
 * The shape of report.json's `coverage` (coverage.ts computes and merges it, coverage-view.ts
 * draws it): the schema the report's JSON Schema is made from, checked against the coverage
 * module's own type.
 */
import { z } from 'zod';
import type { CoverageSnapshot, FunnelStage } from '../../coverage/index.js';
import { FUNNEL_STAGES } from '../../metrics/index.js';
import { count, obj, share, type Assert, type Same } from './common.js';

const stage = z.enum(FUNNEL_STAGES);
const stageCounts = obj(
  Object.fromEntries(FUNNEL_STAGES.map((s) => [s, count])) as Record<FunnelStage, typeof count>,
).describe('conversations that reached each stage');
const namedShare = {
  total: count,
  covered: count,
  share: share.nullable().describe('covered / total, 0..1; null when total is 0'),
  uncovered: z.array(z.string()).describe('what was not covered, by name'),
};

export const coverageSchema = obj({
  shop: obj({
    source: z.string().describe("the policy file, or the embedded emulator's demo shop"),
    currency: z.string(),
  })
    .optional()
    .describe('where the catalogue and the declared intents come from; absent: the job had no shop to count against'),
  products: obj({
    ...namedShare,
    uncovered: z.array(z.string()).describe('products never asked about nor in a cart, in catalogue order'),
    inCart: count.describe('products that reached a cart'),
    unmatchedLines: count.describe('cart lines that named no product of the catalogue, or none droidcheck could read'),
    byProduct: z.array(
      obj({
        name: z.string(),
        price: z.number().nonnegative().describe("list price of one unit, in the shop's currency"),
        asked: count.describe('requests whose customer messages (the new one and the history sent with it) name it'),
        quoted: count.describe('answers whose text names it'),
        inCart: count.describe('answers whose cart holds a line of it'),
        quantities: z.array(z.number().int().positive()).describe('the counts of its cart lines, ascending'),
      }),
    ),
  })
    .optional()
    .describe('covered: asked about or in a cart; absent without a catalogue'),
  intents: obj({
    answers: count.describe('answers that reported an intents list'),
    byIntent: z.array(
      obj({
        name: z.string(),
        declared: z.boolean().describe("listed in the policy's intents:"),
        answers: count.describe('answers that reported it'),
      }),
    ),
    declared: obj(namedShare)
      .optional()
      .describe("the policy's declared intents seen in an answer; absent when it declares none"),
  }),
  funnel: obj({
    conversations: count,
    stages: stageCounts,
    bySuite: z.array(obj({ suite: z.string(), conversations: count, stages: stageCounts })),
    entries: z
      .array(obj({ id: z.string(), suite: z.string(), reached: z.array(stage) }))
      .describe('every conversation (a hash of its key) and the stages it reached: merged reports count each once'),
  }),
  rules: obj({
    ...namedShare,
    uncovered: z.array(z.string()).describe('rules the policy switches on that no answer decided (untested)'),
    byRule: z.array(
      obj({
        rule: z.string(),
        status: z.enum(['tested', 'untested', 'off']),
        held: count.describe('answers it decided and that kept it'),
        broken: count.describe('answers that broke it'),
        undecided: count.describe('answers it could not decide'),
        notApplicable: count.describe('answers holding nothing it judges (no cart, no text)'),
        reasons: z.record(z.string(), count).describe('why it could not decide, with the answers each'),
      }),
    ),
  })
    .optional()
    .describe('absent when no policy judged the answers'),
  service: obj({
    endpoints: z
      .array(obj({ endpoint: z.string(), calls: count, answered: count }))
      .describe('every endpoint of the specification'),
    exercised: count.describe('endpoints with a call answered'),
    unexercised: z.array(z.string()),
    modes: obj({ sync: count, async: count }).describe('answer turns sent per answer mode'),
    redteam: obj({ ran: z.array(z.string()), skipped: z.array(z.string()), notRun: z.array(z.string()) })
      .optional()
      .describe('redteam: the categories that ran, were skipped, or were not asked for'),
  }),
});
const _coverage: Assert<Same<z.output<typeof coverageSchema>, CoverageSnapshot>> = true;
void _coverage;
