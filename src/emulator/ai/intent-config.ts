/**
 * The droid's intents: names as its owner configured them (docs tuning/add-intent.mdx; the
 * async docs page shows `"intents": ["product_inquiry"]` for a price question). Each intent
 * names the built-in detectors that raise it and/or extra keywords; the profile (`intents:`)
 * lists them, in priority order, and may give one a third-party webhook (docs
 * intent-webhook.mdx). Detected intents are reported in that order.
 */
import { USER_INTENT_SENTENCES, type Detector } from './intents.js';

export interface IntentWebhookConfig {
  /** The "Third party URL" the service POSTs the IntentWebhookRequest to. */
  url: string;
  /** The "API Secret Key", sent in the body as `secret` ("" when none). */
  secret: string;
}

export interface IntentDefinition {
  /** The name reported in `intents` and `customerInsight.intents`, e.g. `product_inquiry`. */
  name: string;
  /** Built-in detectors that raise this intent. */
  detects: readonly Detector[];
  /** Extra words or phrases (case-insensitive substrings) that raise it. */
  keywords: readonly string[];
  webhook?: IntentWebhookConfig | undefined;
}

/** The default set (used when a profile has no `intents:`). Includes `product_inquiry` for price and product questions. */
export const DEFAULT_INTENTS: readonly IntentDefinition[] = Object.freeze([
  { name: 'complaint', detects: ['complaint'], keywords: [] },
  { name: 'return_request', detects: ['return_request'], keywords: [] },
  { name: 'purchase', detects: ['purchase'], keywords: [] },
  { name: 'product_inquiry', detects: ['price_inquiry', 'product_inquiry'], keywords: [] },
  { name: 'shipping', detects: ['shipping'], keywords: [] },
  { name: 'payment', detects: ['payment'], keywords: [] },
  { name: 'contact_update', detects: ['contact_update'], keywords: [] },
  { name: 'greeting', detects: ['greeting'], keywords: [] },
  { name: 'thanks', detects: ['thanks'], keywords: [] },
  { name: 'general_inquiry', detects: ['general_inquiry'], keywords: [] },
] satisfies IntentDefinition[]);

export interface ResolvedIntents {
  /** Intent names that fired, in the definitions' order. */
  names: string[];
  /** The definitions that fired (same order), for intent webhooks. */
  matched: IntentDefinition[];
  /** `customerInsight.user_intent`: a sentence for the main detector (or the first keyword intent). */
  userIntent: string;
}

const keywordCache = new WeakMap<readonly IntentDefinition[], (string[] | undefined)[]>();

function lowerKeywords(defs: readonly IntentDefinition[]): (string[] | undefined)[] {
  let out = keywordCache.get(defs);
  if (!out) {
    out = defs.map((d) => (d.keywords.length > 0 ? d.keywords.map((k) => k.toLowerCase()) : undefined));
    keywordCache.set(defs, out);
  }
  return out;
}

/** Maps the detectors that fired (priority order) and the message to the droid's intents. */
export function resolveIntents(
  detected: readonly Detector[],
  message: string,
  defs: readonly IntentDefinition[],
): ResolvedIntents {
  const lower = message.toLowerCase();
  const keywords = lowerKeywords(defs);
  const matched: IntentDefinition[] = [];
  let keywordOnly: IntentDefinition | undefined;
  defs.forEach((def, i) => {
    const byDetector = def.detects.some((d) => detected.includes(d));
    const byKeyword = keywords[i]?.some((k) => lower.includes(k)) ?? false;
    if (byDetector || byKeyword) matched.push(def);
    if (byKeyword && !byDetector) keywordOnly ??= def;
  });
  // The main detector is the first one that some configured intent reports.
  const main = detected.find((d) => matched.some((m) => m.detects.includes(d)));
  const userIntent = main
    ? USER_INTENT_SENTENCES[main]
    : keywordOnly
      ? `Talking about ${keywordOnly.name.replace(/[_-]+/g, ' ')}`
      : USER_INTENT_SENTENCES[detected[0] ?? 'general_inquiry'];
  return { names: matched.map((m) => m.name), matched, userIntent };
}
