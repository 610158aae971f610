/**
 * Checks an expectation path against the answer payload's contract (spec: Answer payload
 * fields; Error payload), so a typo such as `shopingCart.grandTotal` is a load-time error.
 * The contract's objects are loose (the real service may add fields), so only a segment that is
 * close to a known field name (did-you-mean) is refused; far-off names pass. Below a free-form
 * record (`customExtractedInfo`) or an unknown field nothing is checked. A non-numeric segment
 * under a list is refused.
 */
import {
  answerPayloadSchema,
  askResponseSchema,
  channelsResponseSchema,
  conversationsResponseSchema,
  customerSchema,
  customerUpdateResponseSchema,
  errorPayloadSchema,
  imageAltResponseSchema,
  intentWebhookRequestSchema,
  messageForwardingSchema,
  messagesResponseSchema,
  sendResponseSchema,
} from '../contract/index.js';
import type { CallName } from './types.js';
import { didYouMean } from '../suggest.js';

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

function unwrap(s: unknown): unknown {
  let cur = s;
  for (let i = 0; i < 10; i++) {
    const def = defOf(cur);
    if (def && ['optional', 'nullable', 'default', 'readonly'].includes(def.type)) cur = def.innerType;
    else if (def?.type === 'pipe') cur = def.in;
    else return cur;
  }
  return cur;
}

const ROOT_SHAPE: Record<string, unknown> = {
  ...(defOf(errorPayloadSchema)?.shape as Record<string, unknown>),
  ...(defOf(answerPayloadSchema)?.shape as Record<string, unknown>),
};

const shapeOf = (s: unknown): Record<string, unknown> => (defOf(s)?.shape as Record<string, unknown>) ?? {};

/** Response body shapes of the `call` steps (src/contract/service.ts). */
const CALL_SHAPES: Record<CallName, Record<string, unknown>> = {
  channels: shapeOf(channelsResponseSchema),
  messages: shapeOf(messagesResponseSchema),
  customer: shapeOf(customerSchema),
  conversations: shapeOf(conversationsResponseSchema),
  ask: shapeOf(askResponseSchema),
  send: shapeOf(sendResponseSchema),
  setBot: shapeOf(customerUpdateResponseSchema),
  imageAlt: shapeOf(imageAltResponseSchema),
};

/** Why `path` cannot name a field of the answer payload, or undefined when it may. */
export function payloadPathProblem(path: string): string | undefined {
  return fieldPathProblem(path, ROOT_SHAPE, 'the answer payload');
}

/** Why `path` cannot name a field of the response of `call` (e.g. `conversations.0.tpye`). */
export function responsePathProblem(call: CallName, path: string): string | undefined {
  return fieldPathProblem(path, CALL_SHAPES[call], `the ${call} response`);
}

const MESSAGE_SHAPE = shapeOf(messageForwardingSchema);
const INTENT_SHAPE = shapeOf(intentWebhookRequestSchema);

/**
 * Why `path` cannot name a field of a `send` step's body when the step waits for the reply:
 * `reply.*` reads the MessageForwarding body (docs receiving-webhook.mdx), the rest the send response.
 */
export function sendWithReplyPathProblem(path: string): string | undefined {
  if (path === 'reply') return undefined;
  if (path.startsWith('reply.'))
    return fieldPathProblem(path.slice('reply.'.length), MESSAGE_SHAPE, 'the reply (a MessageForwarding body)');
  return responsePathProblem('send', path);
}

/** Why `path` cannot name a field of an intent webhook's body (IntentWebhookRequest, docs intent-webhook.mdx). */
export function intentPathProblem(path: string): string | undefined {
  return fieldPathProblem(path, INTENT_SHAPE, 'the intent webhook (an IntentWebhookRequest body)');
}

function fieldPathProblem(path: string, root: Record<string, unknown>, rootLabel: string): string | undefined {
  const segments = path.split('.');
  let shape: Record<string, unknown> | undefined = root;
  let schema: unknown;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const where = i === 0 ? rootLabel : `"${segments.slice(0, i).join('.')}"`;
    if (shape) {
      if (!Object.hasOwn(shape, seg)) {
        const guess = didYouMean(seg, Object.keys(shape));
        return guess ? `unknown field "${seg}" in ${where} — did you mean "${guess}"?` : undefined;
      }
      schema = unwrap(shape[seg]);
    } else {
      const def = defOf(schema);
      if (def?.type !== 'array') return undefined;
      if (!/^\d+$/.test(seg))
        return `${where} is a list: index it with a number (e.g. "${segments.slice(0, i).join('.')}.0")`;
      schema = unwrap(def.element);
    }
    const def = defOf(schema);
    shape = def?.type === 'object' ? (def.shape as Record<string, unknown>) : undefined;
  }
  return undefined;
}

/** At most this many keys are listed in a hint (a large object would drown the message). */
const HINT_KEYS = 12;

/**
 * Why `path` finds nothing in `value` (a received body), for a failure message: the deepest part
 * of the path that exists and what it holds there, e.g. `"shoppingCart.products.0" has sku, title,
 * qty, unitPrice, lineTotal` (with a did-you-mean when a key is close to the missing segment), or
 * `"shoppingCart.products" has 1 item (index 0)`. Undefined when the path does find a value.
 * Implementations name fields differently where the spec says "not shown" (cart lines are
 * `count` in the emulator, `quantity` or `qty` elsewhere): the keys that exist show the way.
 */
export function missingPathHint(value: unknown, path: string): string | undefined {
  const segments = path.split('.');
  let cur = value;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const here = i === 0 ? 'the body' : `"${segments.slice(0, i).join('.')}"`;
    if (Array.isArray(cur)) {
      const n = cur.length;
      if (/^\d+$/.test(seg) && Number(seg) < n) {
        cur = cur[Number(seg)];
        continue;
      }
      const items = n === 0 ? 'no item' : `${n} item${n === 1 ? '' : 's'} (index ${n === 1 ? '0' : `0 to ${n - 1}`})`;
      return /^\d+$/.test(seg) ? `${here} has ${items}` : `${here} is a list with ${items}: index it with a number`;
    }
    if (cur !== null && typeof cur === 'object') {
      if (Object.hasOwn(cur, seg)) {
        cur = (cur as Record<string, unknown>)[seg];
        continue;
      }
      const keys = Object.keys(cur);
      if (keys.length === 0) return `${here} is an empty object`;
      const listed =
        keys.length > HINT_KEYS ? `${keys.slice(0, HINT_KEYS).join(', ')}, … (${keys.length} keys)` : keys.join(', ');
      const guess = didYouMean(seg, keys);
      return `${here} has ${listed}${guess ? `; did you mean "${segments.slice(0, i).concat(guess).join('.')}"?` : ''}`;
    }
    return `${here} is ${cur === null ? 'null' : `a ${typeof cur}`}, not an object`;
  }
  return undefined;
}
