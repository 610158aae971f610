/**
 * The provider: chat completions and embeddings of any OpenAI-compatible endpoint, through the
 * official `openai` package, over its own undici Agent (never the global dispatcher, so the
 * judge's connections neither share nor disturb the target's; docs/architecture.md, "Inject
 * the edges").
 *
 * - Every call is bounded: `timeoutMs` per HTTP attempt, `retries` retries of 408/409/429/5xx
 *   and network errors with the package's exponential backoff (0.5 s doubling to 8 s, with
 *   jitter; a `retry-after`/`retry-after-ms` header wins).
 * - Failures become JudgeError (DROIDCHECK_ERR_JUDGE) whose message says what happened
 *   (unreachable, timed out, HTTP status) with the API key redacted; the key is never logged
 *   (the package's own logging is off).
 */
import type OpenAI from 'openai';

type Sdk = typeof import('openai');
let sdkLoading: Promise<Sdk> | undefined;
/** The SDK, imported on the first judge or embedding call (~0.1 s saved at start of every command that grades nothing). */
const loadSdk = (): Promise<Sdk> => (sdkLoading ??= import('openai'));
import { Agent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { AbortedError, JudgeError } from '../errors.js';
import { createRedactor, type Redactor } from '../redact.js';
import type { ModelCallScope } from './types.js';
import type { ResolvedLlmConfig } from './config.js';

export interface ChatMessage {
  /** `assistant`: the model's own earlier lines (the simulated customer's, src/llm/simulator.ts). */
  role: 'system' | 'user' | 'assistant';
  content: string;
}

interface ChatAnswer {
  /** The message content ("" when the endpoint sent none). */
  content: string;
  promptTokens: number;
  completionTokens: number;
}

interface EmbeddingAnswer {
  /** One vector per input, in input order. */
  vectors: Float32Array[];
  promptTokens: number;
}

export interface LlmProvider {
  /**
   * A chat completion at temperature 0. Rejects with JudgeError or AbortedError (and, through a
   * budget, BudgetError: budget.ts). `scope`: what the call is made for (budget.ts; unused here).
   */
  chat(model: string, messages: ChatMessage[], signal?: AbortSignal, scope?: ModelCallScope): Promise<ChatAnswer>;
  /** Embeddings of `inputs` (non-empty strings). Rejects with JudgeError or AbortedError (or BudgetError). */
  embed(model: string, inputs: string[], signal?: AbortSignal, scope?: ModelCallScope): Promise<EmbeddingAnswer>;
  close(): Promise<void>;
}

export interface ProviderOptions {
  /** Default: an Agent of this provider's own, closed by `close()`. */
  dispatcher?: Dispatcher;
  /** Called before every HTTP attempt (retries included): for `usage().httpRequests`. */
  onHttpRequest?: () => void;
}

/** A placeholder key for endpoints that need none (Ollama, vLLM, LM Studio): the package insists on one. */
const NO_KEY = 'no-key';

function excerpt(text: string, max = 200): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function describeFailure(sdk: Sdk, err: unknown, what: string, config: ResolvedLlmConfig): string {
  const { APIConnectionError, APIConnectionTimeoutError, APIError } = sdk;
  const tries = `${config.retries + 1} attempt(s)`;
  if (err instanceof APIConnectionTimeoutError)
    return `${what}: no answer from ${config.baseUrl} within ${config.timeoutMs} ms (${tries})`;
  if (err instanceof APIConnectionError) {
    const cause = (err.cause as { code?: unknown; cause?: { code?: unknown } } | undefined) ?? {};
    const code =
      typeof cause.code === 'string'
        ? cause.code
        : typeof cause.cause?.code === 'string'
          ? cause.cause.code
          : 'connection error';
    return `${what}: cannot reach ${config.baseUrl} (${code}, ${tries})`;
  }
  if (err instanceof APIError && err.status !== undefined) {
    const hint =
      err.status === 401 || err.status === 403
        ? ': check OPENAI_API_KEY'
        : err.status === 404
          ? ': check the model name and OPENAI_BASE_URL (it should end in /v1)'
          : '';
    return `${what}: ${config.baseUrl} answered HTTP ${err.status} (${excerpt(err.message)})${hint}`;
  }
  return `${what}: ${err instanceof Error ? excerpt(err.message) : String(err)}`;
}

/** Creates the provider for `config` (see module docs). */
export function createOpenAiProvider(config: ResolvedLlmConfig, options: ProviderOptions = {}): LlmProvider {
  const ownAgent = options.dispatcher ? undefined : new Agent({ keepAliveTimeout: 30_000 });
  const dispatcher = options.dispatcher ?? ownAgent!;
  const redact: Redactor = createRedactor([config.apiKey]);
  const fetchVia = ((input: string | URL, init?: Record<string, unknown>) => {
    options.onHttpRequest?.();
    return undiciFetch(input, { ...(init ?? {}), dispatcher } as Parameters<typeof undiciFetch>[1]);
  }) as unknown as NonNullable<ConstructorParameters<typeof OpenAI>[0]>['fetch'];
  let clientLoading: Promise<{ sdk: Sdk; client: OpenAI }> | undefined;
  const open = () =>
    (clientLoading ??= loadSdk().then((sdk) => ({
      sdk,
      client: new sdk.default({
        apiKey: config.apiKey ?? NO_KEY,
        baseURL: config.baseUrl,
        organization: null,
        project: null,
        timeout: config.timeoutMs,
        maxRetries: config.retries,
        fetch: fetchVia,
        logLevel: 'off',
      }),
    })));

  const fail = (sdk: Sdk, err: unknown, what: string, signal: AbortSignal | undefined): Error => {
    if (err instanceof sdk.APIUserAbortError || signal?.aborted) return new AbortedError(`${what}: interrupted`);
    return new JudgeError(redact(describeFailure(sdk, err, what, config)));
  };

  return {
    async chat(model, messages, signal) {
      const { sdk, client } = await open();
      try {
        const res = await client.chat.completions.create({ model, temperature: 0, messages }, signal ? { signal } : {});
        const content = res.choices?.[0]?.message?.content;
        return {
          content: typeof content === 'string' ? content : '',
          promptTokens: res.usage?.prompt_tokens ?? 0,
          completionTokens: res.usage?.completion_tokens ?? 0,
        };
      } catch (err) {
        throw fail(sdk, err, `judge model ${model}`, signal);
      }
    },
    async embed(model, inputs, signal) {
      const { sdk, client } = await open();
      let res: OpenAI.Embeddings.CreateEmbeddingResponse;
      try {
        res = await client.embeddings.create(
          { model, input: inputs, encoding_format: 'float' },
          signal ? { signal } : {},
        );
      } catch (err) {
        throw fail(sdk, err, `embedding model ${model}`, signal);
      }
      const data = Array.isArray(res?.data) ? res.data : [];
      const vectors: Float32Array[] = [];
      for (let i = 0; i < inputs.length; i++) {
        const item = data.find((d) => d?.index === i) ?? data[i];
        const emb = item?.embedding as unknown;
        if (!Array.isArray(emb) || emb.length === 0 || !emb.every((x) => typeof x === 'number' && Number.isFinite(x))) {
          throw new JudgeError(
            redact(
              `embedding model ${model}: ${config.baseUrl} answered no embedding for input ${i + 1} of ${inputs.length}`,
            ),
          );
        }
        vectors.push(Float32Array.from(emb as number[]));
      }
      return { vectors, promptTokens: res.usage?.prompt_tokens ?? 0 };
    },
    async close() {
      await ownAgent?.close();
    },
  };
}
