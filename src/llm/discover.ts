/**
 * Model discovery: a suite that uses `judge` or `similar` without a model named anywhere (no
 * `--judge-model` / `--embedding-model`, nothing in the config file's `judge:` section) asks the
 * endpoint it was pointed at (`OPENAI_BASE_URL`, or `judge.baseUrl` in the file) which models it
 * serves (`GET <base>/models`, the OpenAI-compatible listing Ollama, vLLM, LM Studio and
 * llama.cpp's server all answer). When it serves exactly one chat model (or one embedding model)
 * that one is used; otherwise the run stops before anything is sent (ConfigError, exit 2) and
 * lists what the endpoint serves, so the user can pick with the flag.
 *
 * The listing says nothing standard about a model's kind: a model is an embedding model when
 * the entry says so (`type`/`mode`/`task`, as LM Studio and LiteLLM add) or its name does
 * (embed, bge, e5, gte, minilm...); speech, image and moderation models are neither; every
 * other model is a chat model.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { ConfigError, formatLocation } from '../errors.js';
import { createRedactor } from '../redact.js';
import { OPENAI_BASE_URL, type GraderUse, type ResolvedLlmConfig } from './config.js';

/** One call, bounded: a listing is small and local endpoints answer at once. */
const DISCOVERY_TIMEOUT_MS = 10_000;

const EMBEDDING_NAME = /embed|(^|[/_.:-])(bge|e5|gte|minilm|mpnet|arctic-embed|jina)([/_.:-]|$)|sentence-transformers/i;
const NEITHER_NAME = /whisper|tts|dall-e|gpt-image|moderation|transcribe|audio|realtime|rerank/i;

export type ModelKind = 'chat' | 'embedding' | 'other';

/** One entry of a `/models` listing. */
interface ServedModel {
  id: string;
  kind: ModelKind;
}

/** The kind of one listed model (see the module docs). */
export function modelKind(entry: Record<string, unknown>): ModelKind {
  const id = String(entry.id);
  const declared = [entry.type, entry.mode, entry.task].find((v): v is string => typeof v === 'string')?.toLowerCase();
  if (declared !== undefined) {
    if (declared.startsWith('embed')) return 'embedding';
    if (
      declared === 'llm' ||
      declared === 'vlm' ||
      declared === 'chat' ||
      declared === 'completion' ||
      declared === 'text-generation'
    )
      return 'chat';
  }
  if (EMBEDDING_NAME.test(id)) return 'embedding';
  if (NEITHER_NAME.test(id)) return 'other';
  return 'chat';
}

/**
 * `GET <baseUrl>/models` (with the key as a bearer token when one is set).
 * @throws ConfigError (exit 2): the endpoint is unreachable, answers non-2xx, or not a listing.
 */
async function listModels(baseUrl: string, apiKey: string | undefined, dispatcher: Dispatcher): Promise<ServedModel[]> {
  const url = `${baseUrl}/models`;
  const redact = createRedactor([apiKey]);
  const fail = (why: string): ConfigError =>
    new ConfigError(
      redact(
        `could not list the models ${url} serves (${why}); name them with --judge-model / --embedding-model (or judge.model / judge.embeddingModel in droidcheck.config.yaml)`,
      ),
    );
  let status: number;
  let text: string;
  try {
    const res = await request(url, {
      dispatcher,
      headers: { accept: 'application/json', ...(apiKey !== undefined && { authorization: `Bearer ${apiKey}` }) },
      headersTimeout: DISCOVERY_TIMEOUT_MS,
      bodyTimeout: DISCOVERY_TIMEOUT_MS,
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw fail(code ?? (err instanceof Error ? err.message : String(err)));
  }
  if (status < 200 || status > 299) throw fail(`HTTP ${status}`);
  let data: unknown;
  try {
    data = (JSON.parse(text) as { data?: unknown }).data;
  } catch {
    data = undefined;
  }
  if (!Array.isArray(data)) throw fail('the answer is not a JSON {"data": [...]} listing');
  return data
    .filter(
      (m): m is Record<string, unknown> =>
        m !== null && typeof m === 'object' && typeof (m as { id?: unknown }).id === 'string',
    )
    .map((m) => ({ id: String(m.id), kind: modelKind(m) }));
}

/** The one model of `kind`, or a ConfigError naming what the endpoint serves. */
function pickOne(served: ServedModel[], kind: 'chat' | 'embedding', use: GraderUse, baseUrl: string): string {
  const fitting = served.filter((m) => m.kind === kind).map((m) => m.id);
  if (fitting.length === 1) return fitting[0]!;
  const what = kind === 'chat' ? 'a chat model' : 'an embedding model';
  const flag =
    kind === 'chat' ? '--judge-model NAME (or judge.model' : '--embedding-model NAME (or judge.embeddingModel';
  const list =
    served.length === 0
      ? 'no models at all'
      : `${fitting.length === 0 ? `no ${kind} model` : `${fitting.length} ${kind} models`}; it serves: ${served.map((m) => `${m.id} (${m.kind})`).join(', ')}`;
  throw new ConfigError(
    `${formatLocation(use.location)}: "${use.matcher}" needs ${what} and none is named; ${baseUrl}/models lists ${list}. Pass ${flag} in droidcheck.config.yaml)`,
  );
}

export interface DiscoverOptions {
  /** Default: an Agent of its own, closed before returning. */
  dispatcher?: Dispatcher;
}

/**
 * Fills the models `uses` need and `config` does not name from the endpoint's listing (see the
 * module docs). Undefined when `config` names no model and nothing needs one. Returns
 * `config` itself when nothing is to be found out: no use, the models
 * named, no endpoint to ask, or OpenAI's own API (a catalogue of dozens of models, where the
 * choice is the user's); `assertGraderConfig` then says what is missing. Sends one request at
 * most.
 * @throws ConfigError (DROIDCHECK_ERR_CONFIG, exit 2): the listing cannot be read, or it does
 *   not hold exactly one model of the kind needed (the message lists what it holds).
 */
export async function discoverModels(
  uses: readonly GraderUse[],
  config: ResolvedLlmConfig | undefined,
  options: DiscoverOptions = {},
): Promise<ResolvedLlmConfig | undefined> {
  if (!config) return config;
  const judgeUse = config.judgeModel === undefined ? uses.find((u) => u.matcher === 'judge') : undefined;
  const similarUse = config.embeddingModel === undefined ? uses.find((u) => u.matcher === 'similar') : undefined;
  // An endpoint alone, and nothing graded nor played (a simulated customer, the red team's
  // adaptive attacker): no model at all (reports show no judge settings).
  if (
    config.judgeModel === undefined &&
    config.embeddingModel === undefined &&
    config.simulatorModel === undefined &&
    !judgeUse &&
    !similarUse
  )
    return undefined;
  if ((!judgeUse && !similarUse) || config.baseUrl === OPENAI_BASE_URL) return config;
  const dispatcher = options.dispatcher ?? new Agent({ connections: 1 });
  try {
    const served = await listModels(config.baseUrl, config.apiKey, dispatcher);
    return {
      ...config,
      ...(judgeUse && { judgeModel: pickOne(served, 'chat', judgeUse, config.baseUrl) }),
      ...(similarUse && { embeddingModel: pickOne(served, 'embedding', similarUse, config.baseUrl) }),
    };
  } finally {
    if (!options.dispatcher) await dispatcher.close();
  }
}
