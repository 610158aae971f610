/**
 * The shapes of report.json's `accuracy` (accuracy.ts computes and merges it, accuracy-view.ts
 * draws it); the TypeScript types are inferred from the schema.
 */
import { z } from 'zod';
import { count, obj, share } from './common.js';

const ratio = z.number().min(0).max(1).nullable().describe('0..1, null when undefined (0/0)');
const intentSchema = obj({
  intent: z.string(),
  support: count.describe('TP + FN: samples that expected it'),
  predicted: count.describe('TP + FP: samples where it was judged present'),
  truePositives: count,
  falsePositives: count,
  falseNegatives: count,
  precision: ratio,
  recall: ratio,
  f1: ratio,
});
const confusionSchema = obj({
  expected: z.array(z.string()),
  actual: z.array(z.string()),
  counts: z.record(z.string(), z.record(z.string(), count)),
}).describe('multi-label confusion matrix: counts[expected][returned]; "(none)" on either side');
const fieldSchema = obj({
  path: z.string(),
  group: z.enum(['cart', 'address']),
  checks: count,
  hits: count,
  hitRate: share,
});
export const accuracySchema = obj({
  samples: count.describe('answers that said something about intents'),
  intents: z.array(intentSchema),
  confusion: confusionSchema,
  fields: z.array(fieldSchema),
});
/** Figures of one intent, all read from the confusion matrix. */
export type IntentMetrics = z.output<typeof intentSchema>;
/** Rows: expected intents (+ `(none)`); columns: returned intents (+ `(none)`); counts[row][column]. */
export type IntentConfusion = z.output<typeof confusionSchema>;
export type FieldHitRate = z.output<typeof fieldSchema>;
export type AccuracyReport = z.output<typeof accuracySchema>;
