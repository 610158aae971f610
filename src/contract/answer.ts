/**
 * The answer and error payloads (spec: Answer payload fields; Error payload; Events).
 * The same answer payload is the synchronous endpoint's response body (spec: 8, "by the overview").
 */
import { z } from 'zod';
import { isoTimestampSchema, requestIdSchema } from './common.js';

/** One paragraph of the reply as a serialised LangChain AIMessage (spec: responses). */
const aiMessageSchema = z.looseObject({
  lc: z.number(),
  type: z.string(),
  id: z.array(z.string()),
  kwargs: z.looseObject({
    content: z.string(),
    additional_kwargs: z.record(z.string(), z.unknown()),
    tool_calls: z.array(z.unknown()),
    invalid_tool_calls: z.array(z.unknown()),
    response_metadata: z.record(z.string(), z.unknown()),
  }),
});
export type AiMessage = z.infer<typeof aiMessageSchema>;

/** Address fields; empty strings when nothing was extracted (spec: addressParsing). */
export const addressParsingSchema = z.looseObject({
  street_address: z.string(),
  subdistrict: z.string(),
  district: z.string(),
  city: z.string(),
  postal_code: z.string(),
  country: z.string(),
});
export type AddressParsing = z.infer<typeof addressParsingSchema>;

/** Contact details found in the conversation (spec: customerInsight.contact_info). */
const contactInfoSchema = z.looseObject({
  name: z.string(),
  phone: z.string(),
  email: z.string(),
});

/** spec: customerInsight. `product_keyword` element type is not shown; strings in practice. */
const customerInsightSchema = z.looseObject({
  forbidden_topics: z.string(),
  user_intent: z.string(),
  intents: z.array(z.string()),
  product_keyword: z.array(z.unknown()),
  user_language: z.string(),
  contact_info: contactInfoSchema,
  has_extractable_info: z.boolean(),
});

/**
 * A money string: an amount followed by an ISO 4217 code, e.g. "1,290.00 THB" (spec: shoppingCart.grandTotal).
 */
export const MONEY_PATTERN = /^-?\d{1,3}(,\d{3})*(\.\d+)?\s[A-Z]{3}$|^-?\d+(\.\d+)?\s[A-Z]{3}$/;
export const moneySchema = z
  .string()
  .regex(MONEY_PATTERN, 'expected an amount and a currency code, e.g. "1,290.00 THB"');

/**
 * Cart line of the answer payload. The spec says "element fields: not shown"; this is
 * droidcheck's CHOICE (never a violation): the cart line the service documents for its intent
 * webhook (docs thirdparty/intent-webhook.mdx, `shopping_cart.products[]`): code, name, price,
 * count, total (numbers, in the catalogue currency) and available.
 */
export const cartProductSchema = z.looseObject({
  code: z.string(),
  name: z.string(),
  price: z.number(),
  count: z.number(),
  total: z.number(),
  available: z.boolean(),
});
export type CartProduct = z.infer<typeof cartProductSchema>;

/** A shipping fee as the async docs page shows it: a bare number string, e.g. "10" (CHOICE tier). */
const BARE_AMOUNT_PATTERN = /^\d+(\.\d+)?$/;

/**
 * spec: shoppingCart {products (elements not shown), shippingFee (string), grandTotal (string)}.
 * Documented tier: products is a list, the two amounts are strings.
 */
const shoppingCartSchema = z.looseObject({
  products: z.array(z.unknown()),
  shippingFee: z.string(),
  grandTotal: z.string(),
});

/** CHOICE tier of the cart: the lines as cartProductSchema, shippingFee "10", grandTotal "0.00 THB" (async docs page). */
const shoppingCartChoiceSchema = z.looseObject({
  products: z.array(cartProductSchema),
  shippingFee: z.string().regex(BARE_AMOUNT_PATTERN, 'expected a bare number string such as "10" (async docs page)'),
  grandTotal: moneySchema,
});
/** The cart the emulator sends (choice tier). */
export type ShoppingCart = z.infer<typeof shoppingCartChoiceSchema>;

/**
 * The answer payload, delivered by webhook on success (spec: Answer payload fields; async docs
 * page, "Success Response"). Documented tier: every field the spec names, with its type.
 */
export const answerPayloadSchema = z.looseObject({
  requestId: requestIdSchema,
  droidId: z.number(),
  customerId: z.number(),
  responses: z.array(aiMessageSchema),
  addressParsing: addressParsingSchema,
  customerInsight: customerInsightSchema,
  shoppingCart: shoppingCartSchema,
  customExtractedInfo: z.record(z.string(), z.unknown()),
  answer: z.string(),
  intents: z.array(z.string()),
  executionTime: z.number(),
  timestamp: isoTimestampSchema,
});
export type AnswerPayload = z.infer<typeof answerPayloadSchema>;

/** CHOICE tier of the answer payload: only what the spec leaves open (the cart lines and amount formats). */
export const answerPayloadChoiceSchema = z.looseObject({
  shoppingCart: shoppingCartChoiceSchema,
});

/** The error payload, delivered by webhook on failure; `answer` is always "" (spec: Error payload). */
export const errorPayloadSchema = z.looseObject({
  requestId: requestIdSchema,
  droidId: z.number(),
  customerId: z.number(),
  answer: z.literal(''),
  error: z.string(),
  executionTime: z.number(),
  timestamp: isoTimestampSchema,
});
export type ErrorPayload = z.infer<typeof errorPayloadSchema>;

export function isErrorPayload(p: unknown): boolean {
  return typeof p === 'object' && p !== null && 'error' in p;
}

/** Picks the schema that applies to a webhook body (spec: Events, rule 1). */
export function webhookSchemaFor(body: unknown): typeof answerPayloadSchema | typeof errorPayloadSchema {
  return isErrorPayload(body) ? errorPayloadSchema : answerPayloadSchema;
}
