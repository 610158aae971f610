/**
 * `createEmulator(options)`: an in-process emulator of the droid Message Endpoint API (spec: the
 * whole document), built by a factory that does not listen. Apart from index.ts so that
 * standalone.ts (which wraps it) and index.ts (which re-exports both) do not import each other.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_CATALOGUE, type Catalogue } from './ai/catalogue.js';
import { Saturation } from './ai/degrade.js';
import { emulatorInstructions, PlantedWeaknesses } from './ai/weaknesses.js';
import { AnswerCache } from './answer-cache.js';
import { buildApp } from './app.js';
import type { EmulatorContext } from './context.js';
import { createControl, type InjectedMessage } from './control.js';
import { DeliveryLog } from './delivery-log.js';
import { FaultEngine } from './faults/engine.js';
import { PendingAnswers } from './faults/burst.js';
import type { FaultProfile, FaultProfileInput } from './faults/profile.js';
import { newToken, resolveOptions, type EmulatorOptions, type IntentWebhookOverride } from './options.js';
import { resolveEmulatorProfile } from './profile/resolve.js';
import { childRandom } from './random.js';
import { applyIntentOverride, intentHooks } from './intent-webhooks.js';
import { createMessageIdFactory, createRequestIdFactory } from './request-id.js';
import { CustomerStore } from './state/store.js';
import { emptyStats, type EmulatorStats } from './stats.js';
import { TimerSet } from './timers.js';
import { messageWebhookTarget, webhookTarget, WebhookDispatcher } from './webhook-dispatcher.js';

export interface Emulator {
  /** Built, not listening. */
  readonly app: FastifyInstance;
  /** The current bearer token (changes on rotateToken()). */
  readonly token: string;
  readonly droidId: number;
  readonly testCustomerId: number | null;
  /** Binds host:port (default 127.0.0.1:0); resolves the base URL, e.g. http://127.0.0.1:PORT. */
  listen(): Promise<string>;
  /** Replaces the webhook (null => not configured; several URLs: taken in turn); the secret is appended as `?secret=`. */
  setWebhook(url: string | readonly string[] | null, secret?: string | null): void;
  /**
   * Sets the message-forwarding webhook (docs receiving-webhook.mdx; null => nothing forwarded);
   * `verifyToken` is appended as `?verify_token=` (undefined keeps the previous one).
   */
  setMessageWebhook(url: string | null, verifyToken?: string | null): void;
  /** Intent webhooks for every (or the named) intent, over the profile's; null restores the profile's. Throws TypeError for a bad URL. */
  setIntentWebhook(override: IntentWebhookOverride | null): void;
  /**
   * Stores a message for a customer as if a human agent (`admin`), the system or a log wrote it,
   * and forwards it. Returns its mid; throws RangeError naming what was wrong.
   */
  addMessage(message: InjectedMessage): string;
  /** A new token; the previous one is refused at once (spec: Authentication, rule 4). */
  rotateToken(): string;
  /** The active fault profile. */
  faults(): FaultProfile;
  /** Replaces the fault profile (object or YAML); restarts the fault stream. Throws FaultProfileError. */
  setFaults(profile: FaultProfileInput | undefined): FaultProfile;
  /** Removes delivery-log entries older than the retention (also runs hourly); returns how many. */
  sweepDeliveryLog(): number;
  /** Counters (a copy). */
  stats(): EmulatorStats;
  /** Cancels pending answers and deliveries, aborts in-flight ones, closes the server. Idempotent. */
  close(): Promise<void>;
}

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** The emulator's shared state (context.ts) from the options and the resolved profile. */
function buildContext(
  options: EmulatorOptions,
  resolved: ReturnType<typeof resolveOptions>,
  profile: ReturnType<typeof resolveEmulatorProfile>,
): EmulatorContext {
  const catalogue: Catalogue = options.catalogue ?? (profile.catalogue as Catalogue) ?? DEFAULT_CATALOGUE;
  const droidId = options.droidId ?? profile.droid.id;
  const testCustomerId = options.testCustomerId === undefined ? profile.droid.testCustomerId : options.testCustomerId;
  const stats = emptyStats();
  const timers = new TimerSet();
  const wallNow = () => resolved.clock.wallNow();
  const log = new DeliveryLog(resolved.deliveryLogRetentionMs, wallNow);
  const dispatcher = new WebhookDispatcher(
    resolved.delivery,
    childRandom(resolved.seed, 'retry-jitter'),
    timers,
    stats,
    log,
    wallNow,
  );
  const secret = options.webhookSecret ?? null;
  const verifyToken = options.verifyToken ?? null;
  const intents = applyIntentOverride(profile.intents, options.intentWebhook);
  return {
    options: resolved,
    droidId,
    testCustomerId,
    webhook: options.webhookUrl && options.webhookUrl.length > 0 ? webhookTarget(options.webhookUrl, secret) : null,
    messageWebhook: options.messageWebhookUrl ? messageWebhookTarget(options.messageWebhookUrl, verifyToken) : null,
    intents,
    intentHooks: intentHooks(intents),
    profile,
    catalogue,
    store: new CustomerStore(profile, wallNow),
    stats,
    timers,
    dispatcher,
    faults: new FaultEngine(resolved.seed, options.faults),
    pending: new PendingAnswers(),
    log,
    answers: new AnswerCache(
      catalogue,
      profile.intents,
      undefined,
      new PlantedWeaknesses(
        options.weaknesses ?? profile.weaknesses,
        catalogue,
        emulatorInstructions(profile.droid.name),
      ),
    ),
    saturation: new Saturation(options.degradeAbove === undefined ? profile.degradeAbove : options.degradeAbove),
    nextRequestId: createRequestIdFactory(),
    nextMessageId: createMessageIdFactory(),
    random: childRandom(resolved.seed, 'misc'),
    hung: new Set(),
    echo: [],
  };
}

/** Stops the sweeper and every timer, drops hung sockets, then closes the dispatcher and the server. */
async function shutDown(
  ctx: EmulatorContext,
  app: FastifyInstance,
  sweeper: ReturnType<typeof setInterval>,
): Promise<void> {
  clearInterval(sweeper);
  ctx.timers.close();
  for (const socket of ctx.hung) socket.destroy();
  ctx.hung.clear();
  await ctx.dispatcher.close();
  await app.close();
  ctx.stats.pending = 0;
  await ctx.options.tracer?.close();
}

/**
 * Creates an emulator. Throws RangeError for a negative delay, ScenarioError
 * (DROIDCHECK_ERR_SCENARIO) for an invalid profile, FaultProfileError for invalid faults,
 * TypeError for an invalid webhook, message-webhook or intent-webhook URL.
 */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const resolved = resolveOptions(options);
  const profile = resolveEmulatorProfile(options.profile);
  const ctx = buildContext(options, resolved, profile);
  const { droidId, testCustomerId, stats, timers, log } = ctx;
  let secret = options.webhookSecret ?? null;
  const verifyToken = options.verifyToken ?? null;
  let token = resolved.token;
  const snapshot = (): EmulatorStats => ({ ...stats, scheduled: timers.size });
  const control = createControl(ctx, profile.intents, verifyToken);
  const app = buildApp(ctx, () => token, snapshot, control);
  await app.ready();
  const sweeper = setInterval(() => log.sweep(), SWEEP_EVERY_MS);
  sweeper.unref();
  let closing: Promise<void> | undefined;

  return {
    app,
    get token() {
      return token;
    },
    droidId,
    testCustomerId,
    async listen() {
      await app.listen({ host: resolved.host, port: resolved.port });
      const addr = app.server.address() as AddressInfo;
      const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      return `http://${host}:${addr.port}`;
    },
    setWebhook(url, newSecret) {
      if (newSecret !== undefined) secret = newSecret;
      ctx.webhook = url && url.length > 0 ? webhookTarget(url, secret) : null;
    },
    setMessageWebhook: (url, token) => control.setMessageWebhook(url, token),
    setIntentWebhook: (override) => control.setIntentWebhook(override),
    addMessage(message) {
      const result = control.addMessage(message);
      if (typeof result === 'string') throw new RangeError(`addMessage: ${result}`);
      return result.mid;
    },
    rotateToken() {
      token = newToken();
      return token;
    },
    faults: () => ctx.faults.profile,
    setFaults: (p) => ctx.faults.set(p),
    sweepDeliveryLog: () => log.sweep(),
    stats: snapshot,
    close: () => (closing ??= shutDown(ctx, app, sweeper)),
  };
}
