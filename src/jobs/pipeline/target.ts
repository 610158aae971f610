/**
 * The one target set-up of every job (the pipeline's, and doctor's round trip): what a job talks
 * to, the embedded emulator (default) or a real service, plus the webhook receiver, all wired
 * together. With no target configured it is the emulator, so a fresh machine runs the suites
 * with no account and no network. With `--deliveries redis://...` (sharded load, docs/scale.md)
 * no receiver is started: the deliveries come from the Redis Stream that `droidcheck receive`
 * fills (createStreamReceiver, read from this process's start; docs/receiver.md). What a job
 * asks beyond its configuration (planted weaknesses, the emulator's webhook retries, a receiver
 * that fails on purpose) is a TargetOptions of its spec (job-spec.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { DroidClient } from '../../client/index.js';
import type { Clock } from '../../clock.js';
import type { RunConfig } from '../../config/index.js';
import { InternalError } from '../../errors.js';
import type { EmulatorOptions, EmulatorTracer, Weakness, WorkerTracing } from '../../emulator/index.js';
import { startEmulatorWorker } from '../../emulator/worker-host.js';
import { listenError } from '../../os-errors.js';
import { createReceiver, createStreamReceiver, redactRedisUrl, type DeliverySource } from '../../receiver/index.js';
import type { ResponsePlan } from '../../receiver/index.js';

/**
 * What openTarget reads of a configuration: a job's (config/index.ts ResolvedConfig), or what
 * doctor and webhook-policy make of theirs (absent: no verify token or intent secret, no
 * `--deliveries`, the emulator inline, the sync message form found out).
 */
export type TargetConfig = Pick<RunConfig, 'target' | 'webhookSecret' | 'receiverHost' | 'receiverPort' | 'publicUrl'> &
  Partial<Pick<RunConfig, 'verifyToken' | 'intentSecret' | 'deliveries' | 'emulatorThread' | 'syncMessage'>>;

/** What a job asks of its target beyond the configuration (JobSpec.target). */
export interface TargetOptions {
  /** Flaws planted in the embedded emulator (`redteam --emulator-weaknesses`). */
  weaknesses?: Weakness[] | undefined;
  /** The embedded emulator's answer-webhook retry policy (webhook-policy's `--webhook-attempts`...); default the emulator's. */
  webhookRetry?: EmulatorOptions['delivery'];
  /** How the receiver answers each answer webhook (webhook-policy: fails on purpose; receiver/response-plan.ts). */
  responsePlan?: ResponsePlan | undefined;
  /** The receiver's clock (arrival times); default systemClock. */
  clock?: Clock | undefined;
  /**
   * How the embedded emulator traces (src/telemetry, export on): a tracer built in this thread,
   * or by the emulator's worker (emulator/worker-host.ts). Undefined: not traced.
   */
  emulatorTracing?: { inline(): Promise<EmulatorTracer | undefined>; worker: WorkerTracing } | undefined;
}

/** Where a shard reads its deliveries (`--deliveries`). */
interface StreamDeliveries {
  /** The Redis URL without its password. */
  redis: string;
  stream: string;
  /** This shard's id in the stream's ownership hashes. */
  shardId: string;
}

export interface Target {
  client: DroidClient;
  /** The receiver of this process, or the stream of `--deliveries`. */
  receiver: DeliverySource;
  /** The URL the service must POST answers to (without the secret); undefined with `--deliveries` (the receivers' URL). */
  webhookUrl: string | undefined;
  /** Where this process's receiver listens for answers (the tunnel's end); undefined with `--deliveries`. */
  localUrl: string | undefined;
  /** The message-forwarding webhook URL to configure (without the verify token). */
  messagesUrl: string | undefined;
  /** The intent webhook URL to configure in each intent. */
  intentsUrl: string | undefined;
  /** Base URL of the service (emulator or real). */
  baseUrl: string;
  /** The embedded emulator, when it is the target. */
  emulator: EmbeddedEmulator | undefined;
  /** `--deliveries`: the stream read instead of a receiver of our own. */
  deliveries: StreamDeliveries | undefined;
  close(): Promise<void>;
}

/** What the run needs of the embedded emulator, in-process or in a worker thread. */
interface EmbeddedEmulator {
  url: string;
  token: string;
  droidId: number;
  /** `worker`: own thread and event loop; `inline`: this process's event loop. */
  thread: 'worker' | 'inline';
  close(): Promise<void>;
}

const WORKER_ENTRY = new URL('../../emulator/worker-entry.js', import.meta.url);

/**
 * Starts the emulator on its own thread when the built worker entry exists (the CLI, from
 * dist/), so the system under test does not share the measuring event loop; inline otherwise
 * (tests running from source).
 */
async function startEmbeddedEmulator(
  options: EmulatorOptions,
  preferWorker: boolean,
  tracing: TargetOptions['emulatorTracing'],
): Promise<EmbeddedEmulator> {
  if (preferWorker && existsSync(fileURLToPath(WORKER_ENTRY))) {
    const w = await startEmulatorWorker({ ...options, ...(tracing && { tracing: tracing.worker }) });
    return { url: w.url, token: w.token, droidId: w.droidId, thread: 'worker', close: () => w.close() };
  }
  // The emulator's app loads here only: with the worker thread (the CLI) or a remote target this
  // isolate loads none of it (~0.6 MB less live heap after the CLI's import).
  const { createEmulator } = await import('../../emulator/create-emulator.js');
  const tracer = await tracing?.inline();
  const emulator = await createEmulator({ ...options, ...(tracer && { tracer }) });
  const url = await emulator.listen();
  return { url, token: emulator.token, droidId: emulator.droidId, thread: 'inline', close: () => emulator.close() };
}

interface OpenedDeliveries {
  receiver: DeliverySource;
  webhookUrl: string | undefined;
  localUrl: string | undefined;
  urls: { messages: string; intents: string } | undefined;
  deliveries: StreamDeliveries | undefined;
}

/** The receiver on loopback by default, or the stream of `--deliveries`. Throws ConfigError when Redis cannot be reached. */
async function openDeliveries(config: TargetConfig, options: TargetOptions): Promise<OpenedDeliveries> {
  if (config.deliveries) {
    const { redisUrl, stream } = config.deliveries;
    const receiver = await createStreamReceiver({ redisUrl, stream });
    return {
      receiver,
      webhookUrl: undefined,
      localUrl: undefined,
      urls: undefined,
      deliveries: { redis: redactRedisUrl(redisUrl), stream, shardId: receiver.shardId },
    };
  }
  const receiver = createReceiver({
    host: config.receiverHost,
    port: config.receiverPort,
    secret: config.webhookSecret,
    verifyToken: config.verifyToken ?? null,
    intentSecret: config.intentSecret ?? null,
    ...(options.responsePlan && { responsePlan: options.responsePlan }),
    ...(options.clock && { clock: options.clock }),
  });
  // The receiver binds the user's --receiver-host/--receiver-port: a port in use or an address
  // this machine lacks is the user's mistake (exit 2), not droidcheck's.
  const receiverUrl = await receiver.listen().catch(async (err: unknown) => {
    await receiver.close().catch(() => undefined);
    throw listenError(
      err,
      { flag: '--receiver-host', value: config.receiverHost },
      { flag: '--receiver-port', value: config.receiverPort },
    );
  });
  return {
    receiver,
    webhookUrl: config.publicUrl ?? receiverUrl,
    localUrl: receiverUrl,
    urls: receiver.urls(),
    deliveries: undefined,
  };
}

/**
 * Starts the receiver (and the emulator when no base URL is configured) on loopback by default,
 * with what the job's `options` ask. Throws UsageError (exit 2) for a receiver address or port
 * this machine cannot bind, ConfigError when `--deliveries`' Redis cannot be reached.
 */
export async function openTarget(
  config: TargetConfig,
  log: (line: string) => void = () => undefined,
  options: TargetOptions = {},
): Promise<Target> {
  const { receiver, webhookUrl, localUrl, urls, deliveries } = await openDeliveries(config, options);
  // Behind a tunnel the three webhooks share its origin: <public>/webhook, /messages, /intents.
  const publicOf = (local: string | undefined): string | undefined =>
    local === undefined
      ? undefined
      : config.publicUrl
        ? new URL(new URL(local).pathname, config.publicUrl).toString()
        : local;
  const messagesUrl = publicOf(urls?.messages);
  const intentsUrl = publicOf(urls?.intents);
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: null });
  let emulator: EmbeddedEmulator | undefined;
  let baseUrl: string;
  let droidId: string | number;
  let token: string;
  try {
    if (config.target.kind === 'emulator') {
      if (webhookUrl === undefined)
        throw new InternalError(
          'the embedded emulator needs a receiver of this process (config/resolve.ts refuses --deliveries without a real target)',
        );
      emulator = await startEmbeddedEmulator(
        {
          webhookUrl,
          webhookSecret: config.webhookSecret,
          ...(messagesUrl && { messageWebhookUrl: messagesUrl, verifyToken: config.verifyToken ?? null }),
          ...(intentsUrl && { intentWebhook: { url: intentsUrl, secret: config.intentSecret ?? '' } }),
          ...(options.weaknesses && { weaknesses: options.weaknesses }),
          ...(options.webhookRetry && { delivery: options.webhookRetry }),
        },
        config.emulatorThread === 'worker',
        options.emulatorTracing,
      );
      baseUrl = emulator.url;
      droidId = emulator.droidId;
      token = emulator.token;
    } else {
      ({ baseUrl, droidId, token } = config.target);
    }
  } catch (err) {
    await receiver.close();
    await dispatcher.close();
    throw err;
  }
  // The sync humanMessage form (a string or {content, type}) is found out once and said once.
  const onSyncMessageForm = (form: string, reason: string): void =>
    log(
      `droidcheck: get-droid-answer: sending humanMessage as ${form === 'string' ? 'a string' : '{content, type}'} from now on (${reason})`,
    );
  const client = new DroidClient({
    baseUrl,
    droidId,
    token,
    dispatcher,
    onSyncMessageForm,
    syncMessageForm: config.syncMessage ?? 'auto',
  });
  let closing: Promise<void> | undefined;
  return {
    client,
    receiver,
    webhookUrl,
    localUrl,
    messagesUrl,
    intentsUrl,
    baseUrl,
    emulator,
    deliveries,
    close() {
      // Emulator first (no more deliveries), then the receiver (parked deliveries become orphans).
      closing ??= (async () => {
        await Promise.allSettled([emulator?.close(), dispatcher.close()]);
        await receiver.close();
      })();
      return closing;
    },
  };
}
