/**
 * Which form of `humanMessage` the synchronous answer endpoint gets (spec 8). The service's
 * endpoint page (docs thirdparty/endpoint.mdx §8) lists it as a **string**; the async page
 * defines an object `{content, type?}`. A target may accept only one of them.
 *
 * - `object` / `string`: always that form (`--sync-message object|string`).
 * - `auto` (default): start with the object form; when the target answers 400
 *   `Invalid humanMessage format` (the spec's text for a humanMessage it cannot read), retry that
 *   one request once in the other form and, when the retry is accepted, keep that form for the
 *   rest of the client's life. `onSwitch(form, reason)` is called once per switch.
 */
import type { HumanMessage, SyncAnswerRequest } from '../contract/index.js';
import { ApiError } from '../errors.js';

export type SyncMessageForm = 'object' | 'string';
export type SyncMessageFormOption = 'auto' | SyncMessageForm;

/** The 400 message that makes `auto` try the other form (spec: Errors, word for word). */
const INVALID_HUMAN_MESSAGE = 'Invalid humanMessage format';

/** The request body in `form`. A string message becomes `{content, type: 'human'}`; an object keeps its type. */
export function renderSyncRequest(req: SyncAnswerRequest, form: SyncMessageForm): Record<string, unknown> {
  const hm = req.humanMessage;
  const message: HumanMessage = typeof hm === 'string' ? { content: hm, type: 'human' } : hm;
  const humanMessage = form === 'string' ? message.content : message;
  return req.chatHistory === undefined
    ? { ...req, humanMessage }
    : { ...req, humanMessage, chatHistory: req.chatHistory };
}

/** True for the 400 that says the target cannot read this form of humanMessage. */
export function isFormRefusal(err: unknown): boolean {
  return err instanceof ApiError && err.status === 400 && err.apiMessage?.trim() === INVALID_HUMAN_MESSAGE;
}

export class SyncMessageFormState {
  #form: SyncMessageForm;

  constructor(
    readonly option: SyncMessageFormOption,
    private readonly onSwitch?: (form: SyncMessageForm, reason: string) => void,
  ) {
    this.#form = option === 'string' ? 'string' : 'object';
  }

  /** The form the next request uses. */
  get form(): SyncMessageForm {
    return this.#form;
  }

  get auto(): boolean {
    return this.option === 'auto';
  }

  /** Records that `form` was accepted after `tried` was refused; switches (and reports) once. */
  accepted(form: SyncMessageForm, tried: SyncMessageForm): void {
    if (this.#form === form) return;
    this.#form = form;
    this.onSwitch?.(
      form,
      `get-droid-answer refused humanMessage as ${tried === 'object' ? 'an object {content, type}' : 'a string'} (400 ${INVALID_HUMAN_MESSAGE}) and accepted it as ${form === 'object' ? 'an object' : 'a string'}; using that form from now on`,
    );
  }
}
