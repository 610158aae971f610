/**
 * What every route of one emulator shares: options, droid identity, state, counters, timers,
 * the webhook dispatcher and the fault engine.
 */
import type { Socket } from 'node:net';
import type { Catalogue } from './ai/catalogue.js';
import type { Saturation } from './ai/degrade.js';
import type { IntentDefinition, IntentWebhookConfig } from './ai/intent-config.js';
import type { AnswerCache } from './answer-cache.js';
import type { DeliveryLog } from './delivery-log.js';
import type { PendingAnswers } from './faults/burst.js';
import type { FaultEngine } from './faults/engine.js';
import type { ResolvedEmulatorOptions } from './options.js';
import type { EmulatorProfile } from './profile/schema.js';
import type { Random } from './random.js';
import type { RequestIdFactory } from './request-id.js';
import type { CustomerStore } from './state/store.js';
import type { EmulatorStats } from './stats.js';
import type { TimerSet } from './timers.js';
import type { WebhookDispatcher, WebhookTarget } from './webhook-dispatcher.js';

interface EchoEntry {
  receivedAt: string;
  /** Query without the secret value (present: true/false). */
  secretPresent: boolean;
  body: unknown;
}

export interface EmulatorContext {
  readonly options: ResolvedEmulatorOptions;
  readonly droidId: number;
  readonly testCustomerId: number | null;
  /** Mutable: setWebhook() replaces it; null => not configured. */
  webhook: WebhookTarget | null;
  /** Message-forwarding webhook (with `?verify_token=`); null => nothing forwarded. Mutable. */
  messageWebhook: WebhookTarget | null;
  /** The droid's intents (profile order), with their webhooks after any `intentWebhook` override. Mutable. */
  intents: readonly IntentDefinition[];
  /** Name => webhook of the intents that have one (derived from `intents`). Mutable. */
  intentHooks: Map<string, IntentWebhookConfig>;
  readonly profile: EmulatorProfile;
  readonly catalogue: Catalogue;
  readonly store: CustomerStore;
  readonly stats: EmulatorStats;
  readonly timers: TimerSet;
  readonly dispatcher: WebhookDispatcher;
  readonly faults: FaultEngine;
  /** Answers being made, while the fault profile has `burst-first-late` (faults/burst.ts). */
  readonly pending: PendingAnswers;
  readonly log: DeliveryLog;
  readonly answers: AnswerCache;
  /** Answers in progress and the planted knee (ai/degrade.ts). */
  readonly saturation: Saturation;
  readonly nextRequestId: RequestIdFactory;
  /** Message ids `ddtp-...` (MessageForwarding `mid`). */
  readonly nextMessageId: RequestIdFactory;
  /** Seeded stream for anything else random (e.g. wrong secrets). */
  readonly random: Random;
  /** Sockets held open by the `hang` fault; destroyed on close. */
  readonly hung: Set<Socket>;
  /** Bodies received by the dev echo webhook (newest last, bounded). */
  readonly echo: EchoEntry[];
}
