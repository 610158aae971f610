/**
 * spec 5: answers a free-form question about a customer from the last 50 messages of their
 * conversation. JSON text when the prompt asks for JSON, plain text otherwise. Topics:
 * sentiment, product interest, concerns (summary), next sales step; all of them when the
 * prompt names none. A JSON prompt that writes out its template (`{ "status": ..., "reason": ... }`,
 * the docs' example) gets exactly those keys.
 */
import type { ConversationMessage } from '../../contract/index.js';
import { findProducts, type Catalogue } from './catalogue.js';
import { detectIntents } from './intents.js';

/** spec: Limits, "Chat history used as context: 50 messages". */
export const ASK_CONTEXT_MESSAGES = 50;

const NEGATIVE =
  /\b(broken|damaged|terrible|awful|angry|disappoint\w*|bad|worst|late|wrong|refund|complain\w*)\b|ไม่พอใจ|แย่|เสีย|ชำรุด|ผิดหวัง/i;
const POSITIVE = /\b(thanks|thank you|great|love|perfect|good|excellent|happy|awesome|nice)\b|ขอบคุณ|ดีมาก|ชอบ|สวย/i;

interface AskInsight {
  sentiment: 'positive' | 'negative' | 'neutral';
  productInterest: string[];
  concerns: string[];
  summary: string;
  nextStep: string;
  messagesConsidered: number;
}

/** `messages` newest first (as stored); only the newest 50 are read. */
function analyseConversation(messages: readonly ConversationMessage[], catalogue: Catalogue): AskInsight {
  const recent = messages.slice(0, ASK_CONTEXT_MESSAGES);
  const human = recent.filter((m) => m.type === 'human').map((m) => (m.contentType === 'image' ? m.alt : m.content));
  let score = 0;
  const products = new Set<string>();
  const concerns = new Set<string>();
  for (const text of human) {
    if (NEGATIVE.test(text)) score -= 1;
    if (POSITIVE.test(text)) score += 1;
    for (const m of findProducts(text, catalogue)) products.add(m.product.name);
    for (const intent of detectIntents(text, { mentionsProduct: false, hasContact: false, followUpPurchase: false })) {
      if (
        intent === 'complaint' ||
        intent === 'return_request' ||
        intent === 'shipping' ||
        intent === 'payment' ||
        intent === 'price_inquiry'
      )
        concerns.add(intent);
    }
  }
  const sentiment = score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral';
  const productInterest = [...products];
  const concernList = [...concerns];
  const nextStep =
    concerns.has('complaint') || concerns.has('return_request')
      ? 'Resolve the open issue first: contact the customer and arrange a return or replacement.'
      : productInterest.length > 0
        ? `Follow up with an offer for ${productInterest.join(', ')}.`
        : 'Ask which products the customer is looking for.';
  const summary =
    human.length === 0
      ? 'No customer messages yet.'
      : `${human.length} customer message(s); sentiment ${sentiment}` +
        (productInterest.length > 0 ? `; interested in ${productInterest.join(', ')}` : '') +
        (concernList.length > 0 ? `; topics: ${concernList.join(', ')}` : '') +
        '.';
  return { sentiment, productInterest, concerns: concernList, summary, nextStep, messagesConsidered: recent.length };
}

/** `"key":` names of a JSON template written in the prompt (docs endpoint.mdx §5: `{ "status": ..., "reason": ... }`). */
const TEMPLATE_KEY = /"([A-Za-z_][A-Za-z0-9_]*)"\s*:/g;

/** The value for one key the prompt's JSON template asks for, picked by the key's meaning. */
function templateValue(key: string, insight: AskInsight): unknown {
  const k = key.toLowerCase();
  if (/sentiment|status|mood|feeling|tone|emotion/.test(k)) return insight.sentiment;
  if (/product|interest/.test(k)) return insight.productInterest;
  if (/concern|issue|problem|question|topic/.test(k)) return insight.concerns;
  if (/next|step|action|recommend/.test(k)) return insight.nextStep;
  return insight.summary; // reason, summary, explanation and anything else
}

export function answerPrompt(prompt: string, messages: readonly ConversationMessage[], catalogue: Catalogue): string {
  const insight = analyseConversation(messages, catalogue);
  const p = prompt.toLowerCase();
  const templateKeys = /\bjson\b/.test(p) ? [...new Set([...prompt.matchAll(TEMPLATE_KEY)].map((m) => m[1]!))] : [];
  // A prompt that spells out the JSON it wants gets exactly those keys (as an LLM would).
  if (templateKeys.length > 0)
    return JSON.stringify(Object.fromEntries(templateKeys.map((key) => [key, templateValue(key, insight)])));
  const wants = {
    sentiment: /sentiment|feel|mood|emotion|ความรู้สึก|อารมณ์/.test(p),
    productInterest: /product|interest|buy|สินค้า|สนใจ/.test(p),
    concerns: /concern|issue|problem|summar|ปัญหา|สรุป/.test(p),
    nextStep: /next|step|follow|action|ขั้นตอน|ถัดไป/.test(p),
  };
  const none = !Object.values(wants).some(Boolean);
  if (/\bjson\b/.test(p)) {
    const out: Record<string, unknown> = {};
    if (none || wants.sentiment) out.sentiment = insight.sentiment;
    if (none || wants.productInterest) out.productInterest = insight.productInterest;
    if (none || wants.concerns) {
      out.concerns = insight.concerns;
      out.summary = insight.summary;
    }
    if (none || wants.nextStep) out.nextStep = insight.nextStep;
    return JSON.stringify(out);
  }
  const parts: string[] = [];
  if (none || wants.sentiment) parts.push(`The customer's sentiment is ${insight.sentiment}.`);
  if (none || wants.productInterest) {
    parts.push(
      insight.productInterest.length > 0
        ? `They are interested in ${insight.productInterest.join(', ')}.`
        : 'No product interest was expressed.',
    );
  }
  if (none || wants.concerns) parts.push(`Summary: ${insight.summary}`);
  if (none || wants.nextStep) parts.push(`Next step: ${insight.nextStep}`);
  return parts.join(' ');
}
