/**
 * The emulator's "AI": a pure, deterministic rule engine. `generateAnswer` turns a message
 * and its chat history into every content field of the answer payload (spec: Answer payload
 * fields); the emulator adds requestId, droidId, customerId, executionTime and timestamp.
 */
import type { AddressParsing, AiMessage, AnswerPayload, ChatHistoryItem, ShoppingCart } from '../../contract/index.js';
import { EMPTY_ADDRESS, extractAddress, hasAddress } from './address.js';
import { mergeLines, priceCart, type CartLine } from './cart.js';
import { DEFAULT_CATALOGUE, findProducts, type Catalogue, type CatalogueProduct } from './catalogue.js';
import { composeParagraphs } from './compose.js';
import { extractContact, hasContact, mergeContacts } from './contact.js';
import { DEFAULT_INTENTS, resolveIntents, type IntentDefinition } from './intent-config.js';
import { detectIntents, namesPurchase } from './intents.js';
import { conversationLanguage, LANGUAGE_NAMES, type Language } from './language.js';
import { detectPaymentMethod, type PaymentMethod } from './payment.js';
import { bareQuantity, quantityAround } from './quantity.js';

export { DEFAULT_CATALOGUE, formatAmount, formatMoney } from './catalogue.js';
export type { Catalogue } from './catalogue.js';
export { extractAddress } from './address.js';
export { extractContact } from './contact.js';
export { detectLanguage } from './language.js';
export type { IntentDefinition } from './intent-config.js';
export { detectPaymentMethod } from './payment.js';

export interface AnswerInput {
  humanMessage: string;
  chatHistory: ChatHistoryItem[];
}

/** The content fields of the answer payload (everything but ids, executionTime and timestamp). */
export type AnswerBody = Pick<
  AnswerPayload,
  'responses' | 'addressParsing' | 'customerInsight' | 'customExtractedInfo' | 'answer' | 'intents'
> & {
  /** The emulator's cart (choice tier: lines as {code, name, price, count, total, available}). */
  shoppingCart: ShoppingCart;
};

/** One paragraph as a serialised LangChain AIMessage (spec: responses). */
export function aiMessage(content: string): AiMessage {
  return {
    lc: 1,
    type: 'constructor',
    id: ['langchain_core', 'messages', 'AIMessage'],
    kwargs: { content, additional_kwargs: {}, tool_calls: [], invalid_tool_calls: [], response_metadata: {} },
  };
}

/** The product talked about most recently in the history (either side), for "I'll take 2". */
function lastHistoryProduct(history: ChatHistoryItem[], catalogue: Catalogue): CatalogueProduct | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const mentions = findProducts(history[i]!.content, catalogue);
    const last = mentions[mentions.length - 1];
    if (last) return last.product;
  }
  return undefined;
}

/** A message that goes on from the customer's previous one: "and ...", "also ...", "plus ...". */
const CONTINUES = /^\s*(?:and|also|plus|\+|&|และ|แล้วก็|อีก)(?:\s|$)/i;

const TAKE_IT =
  /\b(?:i'?ll take|i will take|take (?:it|them|one)|i'?ll have|i want (?:it|them|one)|add (?:it|them) to)\b|เอาอันนี้|เอาตัวนี้|เอาเลย|สั่งเลย/i;

/** What the emulator needs beyond the payload (intent webhooks). */
interface AnswerFacts {
  language: Language;
  paymentMethod: PaymentMethod;
}

export interface AnalysedAnswer {
  body: AnswerBody;
  facts: AnswerFacts;
}

/** `generateAnswer` with the facts the intent webhook needs (pure, deterministic). */
export function analyseAnswer(
  input: AnswerInput,
  catalogue: Catalogue = DEFAULT_CATALOGUE,
  intents: readonly IntentDefinition[] = DEFAULT_INTENTS,
): AnalysedAnswer {
  return build(input, catalogue, intents);
}

/**
 * Pure and deterministic: the same input, catalogue and intents give the same body.
 * Rules: the human turns that end the history are read with the message (`unanswered`); intents
 * from keywords (message only); products and quantities from the message, or
 * for a follow-up ("I'll take 2") from the last product named in the history; contact details
 * merged over the human turns (latest wins); address from the message, or for a purchase,
 * shipping or payment message from the latest human turn holding one. Intent names are the
 * droid's (`intents`, default DEFAULT_INTENTS); `user_language` a language name ("English");
 * `user_intent` a sentence ("Asking about product pricing").
 */
export function generateAnswer(
  input: AnswerInput,
  catalogue: Catalogue = DEFAULT_CATALOGUE,
  intents: readonly IntentDefinition[] = DEFAULT_INTENTS,
): AnswerBody {
  return build(input, catalogue, intents).body;
}

/**
 * The customer's unanswered messages: the human turns that end the history (sent before this
 * message, answered by nothing yet: a burst, docs/bursts.md) are read with the message, as one
 * thing the customer said, so "I want 2 T-shirts" then "and a tote bag" gets both in the cart.
 * A message that goes on from the customer's last one ("and 1 tote bag", "also a belt") is read
 * with that one too, when it was answered already. `buyingFrom`: where in `message` the order
 * starts, the first of those turns that names a purchase ("Do you have sneakers?" then "I want to
 * buy a belt" orders the belt alone); 0 when none does. `history`: the turns before them.
 */
function unanswered(input: AnswerInput): { message: string; buyingFrom: number; history: ChatHistoryItem[] } {
  const h = input.chatHistory;
  let first = h.length;
  while (first > 0 && h[first - 1]!.type === 'human') first--;
  if (first === h.length && CONTINUES.test(input.humanMessage)) first = h.findLastIndex((t) => t.type === 'human');
  if (first < 0 || first === h.length) return { message: input.humanMessage, buyingFrom: 0, history: h };
  const turns = [...h.slice(first).flatMap((t) => (t.type === 'human' ? [t.content] : [])), input.humanMessage];
  let buyingFrom = 0;
  let at = 0;
  for (const t of turns) {
    if (namesPurchase(t)) {
      buyingFrom = at;
      break;
    }
    at += t.length + 1;
  }
  return { message: turns.join('\n'), buyingFrom, history: h.slice(0, first) };
}

function build(input: AnswerInput, catalogue: Catalogue, intentDefs: readonly IntentDefinition[]): AnalysedAnswer {
  const { message, buyingFrom, history } = unanswered(input);
  const humanTurns = history.filter((t) => t.type === 'human').map((t) => t.content);
  const language = conversationLanguage(message, humanTurns);
  const mentions = findProducts(message, catalogue);
  const contactNow = extractContact(message);
  const contact = mergeContacts([...humanTurns.map(extractContact), contactNow]);

  // What the order names: the mentions from the turn that orders on (all of them for one message).
  const buying = buyingFrom === 0 ? mentions : mentions.filter((m) => m.start >= buyingFrom);
  const ordering = message.slice(buyingFrom);
  let followUp: CatalogueProduct | undefined;
  const bare = buying.length === 0 ? bareQuantity(ordering) : undefined;
  if (buying.length === 0 && (bare !== undefined || TAKE_IT.test(ordering)))
    followUp = lastHistoryProduct(
      buyingFrom === 0 ? history : [...history, { type: 'human', content: message.slice(0, buyingFrom) }],
      catalogue,
    );

  const intents = detectIntents(message, {
    mentionsProduct: mentions.length > 0,
    hasContact: hasContact(contactNow),
    followUpPurchase: followUp !== undefined,
  });

  let lines: CartLine[] = [];
  if (intents.includes('purchase')) {
    lines = followUp
      ? [{ product: followUp, quantity: bare ?? 1 }]
      : mergeLines(buying.map((m) => ({ product: m.product, quantity: quantityAround(message, m.start, m.end) ?? 1 })));
  }
  const cart = priceCart(lines, catalogue);

  let address: AddressParsing = extractAddress(message, language);
  if (!hasAddress(address) && intents.some((i) => i === 'purchase' || i === 'shipping' || i === 'payment')) {
    for (let i = humanTurns.length - 1; i >= 0; i--) {
      const earlier = extractAddress(humanTurns[i]!, language);
      if (hasAddress(earlier)) {
        address = earlier;
        break;
      }
    }
  }

  const named = [...new Set([...mentions.map((m) => m.product), ...lines.map((l) => l.product)])];
  const paragraphs = composeParagraphs({ language, intents, products: named, cart, address, contact, catalogue });
  const answer = paragraphs.join('\n\n');
  const droidIntents = resolveIntents(intents, message, intentDefs);
  const body: AnswerBody = {
    responses: paragraphs.map(aiMessage),
    addressParsing: hasAddress(address) ? address : { ...EMPTY_ADDRESS },
    customerInsight: {
      forbidden_topics: 'no',
      user_intent: droidIntents.userIntent,
      intents: [...droidIntents.names],
      product_keyword: named.map((p) => p.name),
      user_language: LANGUAGE_NAMES[language],
      contact_info: { name: contact.name, phone: contact.phone, email: contact.email },
      has_extractable_info: hasAddress(address) || hasContact(contact) || lines.length > 0,
    },
    shoppingCart: cart.cart,
    customExtractedInfo: {},
    answer,
    intents: droidIntents.names,
  };
  const facts: AnswerFacts = { language, paymentMethod: detectPaymentMethod(message, humanTurns) };
  return { body, facts };
}
