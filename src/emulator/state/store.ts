/**
 * The emulator's mutable state, seeded from the profile: customers (bot switch, profile
 * fields, a chat thread id) and their conversations (kept newest first, spec: Conversation
 * message).
 */
import type {
  Channel,
  ConversationMessage,
  Customer,
  MessageContentType,
  MessageSenderType,
} from '../../contract/index.js';
import type { EmulatorProfile, ProfileCustomer } from '../profile/schema.js';

/** At most this many messages per customer; the oldest go first. */
const MAX_MESSAGES = 10_000;

/** "2025-01-15T10:30:00+07:00": the wall time at `offset`, seconds precision. */
function isoWithOffset(date: Date, offset: string): string {
  const sign = offset.startsWith('-') ? -1 : 1;
  const [h = 0, m = 0] = offset.slice(1).split(':').map(Number);
  const local = new Date(date.getTime() + sign * (h * 60 + m) * 60_000);
  return `${local.toISOString().slice(0, 19)}${offset}`;
}

interface CustomerState {
  record: Customer;
  /** The conversation thread's id (MessageForwarding `chatId`): 1, 2, ... in profile order. */
  chatId: number;
  /** Newest first. */
  conversations: ConversationMessage[];
}

export interface NewMessage {
  /** Who sent it (docs receiving-webhook.mdx, "Message Type"). */
  type: MessageSenderType;
  /** Its format (docs receiving-webhook.mdx, "Content Types"). */
  contentType: MessageContentType;
  /** Text, image URL, or (button) one choice per line. */
  content: string;
  alt?: string;
}

/** A message just stored, with the instant it was created (for the forwarded `createdAt`). */
export interface StoredMessage {
  customerId: number;
  chatId: number;
  channelId: number;
  message: ConversationMessage;
  at: Date;
}

function toRecord(c: ProfileCustomer): Customer {
  const { conversations: _c, ...record } = c;
  return { ...record };
}

export class CustomerStore {
  private readonly customers = new Map<number, CustomerState>();
  private nextMessageId: number;
  readonly channels: Channel[];

  constructor(
    profile: EmulatorProfile,
    private readonly now: () => Date,
  ) {
    this.offset = profile.droid.utcOffset;
    this.channels = profile.channels.map((c) => ({ ...c }));
    let maxId = 0;
    let chatId = 0;
    for (const c of profile.customers) {
      const conversations = c.conversations.map((m) => ({ ...m }));
      for (const m of conversations) maxId = Math.max(maxId, m.id);
      this.customers.set(c.customerId, { record: toRecord(c), chatId: ++chatId, conversations });
    }
    this.nextMessageId = maxId + 1;
  }

  private readonly offset: string;

  has(customerId: number): boolean {
    return this.customers.has(customerId);
  }

  customer(customerId: number): Customer | undefined {
    return this.customers.get(customerId)?.record;
  }

  /** Newest first (the stored array; do not mutate). */
  conversations(customerId: number): readonly ConversationMessage[] {
    return this.customers.get(customerId)?.conversations ?? [];
  }

  setBotEnabled(customerId: number, botEnabled: boolean): Customer | undefined {
    const state = this.customers.get(customerId);
    if (!state) return undefined;
    state.record.botEnabled = botEnabled;
    return state.record;
  }

  /** Appends a message (becomes the newest); undefined for an unknown customer. */
  append(customerId: number, message: NewMessage): StoredMessage | undefined {
    const state = this.customers.get(customerId);
    if (!state) return undefined;
    const now = this.now();
    const at = isoWithOffset(now, this.offset);
    const stored: ConversationMessage = {
      id: this.nextMessageId++,
      type: message.type,
      contentType: message.contentType,
      content: message.content,
      alt: message.alt ?? '',
      note: null,
      createdAt: at,
      updatedAt: at,
    };
    state.conversations.unshift(stored);
    if (state.conversations.length > MAX_MESSAGES) state.conversations.length = MAX_MESSAGES;
    return { customerId, chatId: state.chatId, channelId: state.record.channelId, message: stored, at: now };
  }
}
