/**
 * `runImport(options, io)`: real conversations -> regression scenarios, so what the bot
 * answered real customers becomes a suite that catches a change in those answers.
 *
 * Reads each customer's conversation (spec 4, GET customer/:customerId/conversations; spec 2,
 * GET messages/:customerId when the first answers 404), orders it oldest first (the service
 * returns it newest first: spec, Conversation message), and writes one scenario per AI turn
 * (or only the last, `turns: 'last'`): the chat history before the turn's human message, the
 * human message, and a `similar` expectation against the recorded AI answer (threshold 0.8 by
 * default). Consecutive AI messages form one answer (the service splits replies by paragraph:
 * spec, Answer payload fields, responses). Images in the history keep their URL and `alt`;
 * `admin` messages (a human agent: real-service docs, message-forwarding webhook) are history
 * on the shop's side; `system`/`log` messages are left out.
 *
 * `turns: 'conversation'` writes instead one steps scenario per customer, a `say` per AI turn
 * (each with its `similar` expectation), so the conversation is replayed turn by turn, under
 * `load` too (docs/conversations.md). The customer's real pauses become `think:` on the steps:
 * the time from the message before each human message (usually the previous answer) to it,
 * from `createdAt`, capped at MAX_THINK_MS (10 min: a longer pause is a customer who came back
 * later, replayed as 10 min). A history message between turns (an admin reply) is not replayed:
 * each `say` carries the earlier turns and the answers the target gives now.
 *
 * `table: true` writes instead one table scenario (`each:`) and its rows, one per AI turn, in a
 * JSON lines file beside the suite (table.ts).
 *
 * Without `baseUrl` it imports from an embedded emulator started here (its seeded customers).
 * The suite is YAML with the `$schema` comment line and validates (`parseSuite`) before it is
 * written.
 *
 * Errors: UsageError (no customers, a bad threshold, nothing to import, the file exists without
 * `force`); ConfigError (a real target without droid id or token; a customer answered 401/403/404);
 * TransportError / TimeoutError from the client. The token never appears in the file or a message.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Writable } from 'node:stream';
import { Agent } from 'undici';
import { Document, isScalar, visit, type YAMLSeq } from 'yaml';
import { DroidClient } from '../../client/index.js';
import type { ConversationMessage } from '../../contract/index.js';
import type { Emulator } from '../../emulator/index.js';
import { ApiError, ConfigError, InternalError, UsageError } from '../../errors.js';
import { MAX_THINK_MS, parseSuite } from '../../scenario/index.js';
import { excerpt, rowsFileOf, tableSuite } from './table.js';

export interface ImportOptions {
  /** Customers whose conversations become scenarios (at least one). */
  customers: readonly (string | number)[];
  /** The suite file to write (`.yaml`). */
  out: string;
  /** Real service; undefined => an embedded emulator. */
  baseUrl?: string | undefined;
  droidId?: string | number | undefined;
  /** DROID_API_TOKEN (from the environment only). */
  token?: string | undefined;
  /** Every AI turn (default), only the last of each conversation, or each conversation as one steps scenario with its pauses. */
  turns?: 'all' | 'last' | 'conversation';
  /** One table scenario (`each:`) whose rows, one per AI turn, are a JSON lines file beside `out` (`<name>.rows.jsonl`); not with `turns: 'conversation'`. */
  table?: boolean;
  /** Threshold of the `similar` expectations, 0..1. Default 0.8. */
  threshold?: number;
  /** Suite name. Default "Imported conversations". */
  suite?: string;
  /** Overwrite an existing file. */
  force?: boolean;
  /** Emulator profile (object or YAML path) when there is no base URL. Default: the emulator's. */
  emulatorProfile?: string;
  /** Per-request deadline, ms. Default the client's (30 s). */
  requestTimeoutMs?: number;
  signal?: AbortSignal;
}

export interface ImportIo {
  stdout: Writable;
  stderr: Writable;
}

interface ImportedCustomer {
  customerId: string | number;
  /** Messages read. */
  messages: number;
  /** Scenarios written for this customer. */
  scenarios: number;
  /** The endpoint the messages came from. */
  source: 'conversations' | 'messages';
}

export interface ImportResult {
  /** Absolute path of the written suite. */
  file: string;
  suite: string;
  scenarios: number;
  customers: ImportedCustomer[];
  target: 'emulator' | 'remote';
}

/** A chat turn as the suite format writes it (scenario/schema.ts, chatTurnSchema). */
type UserTurn =
  | { human: string }
  | { ai: string }
  | { type: 'human' | 'ai'; content: string; contentType: 'image'; alt?: string };

interface ImportedTurn {
  chatHistory: UserTurn[];
  humanMessage: string;
  answer: string;
  /** 1-based position of the AI turn in the conversation. */
  ordinal: number;
  /** The customer's pause before the human message, ms (from the message before it; capped at MAX_THINK_MS); undefined without timestamps. */
  thinkMs?: number;
}

const DEFAULT_IMPORT_THRESHOLD = 0.8;

function chronological(messages: readonly ConversationMessage[]): ConversationMessage[] {
  const at = (m: ConversationMessage): number => {
    const t = Date.parse(m.createdAt);
    return Number.isNaN(t) ? 0 : t;
  };
  return [...messages].sort((a, b) => at(a) - at(b) || a.id - b.id);
}

/** ms from message `a` to message `b` (createdAt), capped at MAX_THINK_MS; undefined when either time is missing or b is not later. */
function pauseMs(a: ConversationMessage | undefined, b: ConversationMessage): number | undefined {
  if (!a) return undefined;
  const gap = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return Number.isFinite(gap) && gap > 0 ? Math.min(gap, MAX_THINK_MS) : undefined;
}

/** A pause as a suite duration: `850ms`, `4.2s` (0.1 s steps from 1 s on), whole minutes as `10m`. */
export function thinkText(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  return ms < 1000 ? `${Math.round(ms)}ms` : `${Math.round(ms / 100) / 10}s`;
}

function historyTurn(m: ConversationMessage, side: 'human' | 'ai'): UserTurn {
  if (m.contentType === 'image')
    return m.alt
      ? { type: side, content: m.content, contentType: 'image', alt: m.alt }
      : { type: side, content: m.content, contentType: 'image' };
  return side === 'human' ? { human: m.content } : { ai: m.content };
}

/**
 * The AI turns of one conversation (messages in any order), oldest first. Pure.
 * A turn needs a human message right before its run of AI messages, and some text in that run.
 */
export function conversationTurns(messages: readonly ConversationMessage[]): ImportedTurn[] {
  const list = chronological(messages).filter((m) => m.type === 'human' || m.type === 'ai' || m.type === 'admin');
  const out: ImportedTurn[] = [];
  const history: UserTurn[] = [];
  let ordinal = 0;
  for (let i = 0; i < list.length; i++) {
    const m = list[i]!;
    if (m.type !== 'ai') {
      history.push(historyTurn(m, m.type === 'human' ? 'human' : 'ai'));
      continue;
    }
    let j = i;
    while (j + 1 < list.length && list[j + 1]!.type === 'ai') j++;
    const run = list.slice(i, j + 1);
    const prev = list[i - 1];
    const answer = run
      .filter((r) => r.contentType !== 'image' && r.content.trim() !== '')
      .map((r) => r.content.trim())
      .join('\n\n');
    ordinal += 1;
    if (prev?.type === 'human' && answer !== '') {
      const thinkMs = pauseMs(list[i - 2], prev);
      out.push({
        chatHistory: history.slice(0, -1),
        humanMessage: prev.content,
        answer,
        ordinal,
        ...(thinkMs !== undefined && { thinkMs }),
      });
    }
    for (const r of run) history.push(historyTurn(r, 'ai'));
    i = j;
  }
  return out;
}

/** Short lists of plain words (tags) are written in flow style: `[imported, customer-2001]`. */
function isScalarList(node: YAMLSeq): boolean {
  return (
    node.items.length <= 4 &&
    node.items.every((i) => isScalar(i) && typeof i.value === 'string' && /^[\w-]+$/.test(i.value))
  );
}

/** One steps scenario replaying a customer's turns with their pauses (`turns: 'conversation'`). */
function conversationScenario(
  customerId: string | number,
  turns: readonly ImportedTurn[],
  threshold: number,
): Record<string, unknown> {
  const first = turns[0]!;
  return {
    name: `customer ${customerId}: conversation of ${turns.length} turn${turns.length === 1 ? '' : 's'}`,
    tags: ['imported', `customer-${customerId}`],
    ...(first.chatHistory.length > 0 && { chatHistory: first.chatHistory }),
    steps: turns.map((t, k) => ({
      say: t.humanMessage,
      ...(k > 0 && t.thinkMs !== undefined && { think: thinkText(t.thinkMs) }),
      expect: { answer: { similar: { value: t.answer, threshold } } },
    })),
  };
}

/** The suite document (plain data) for the turns of each customer (`conversation`: one steps scenario each). */
function importedSuite(
  name: string,
  byCustomer: readonly { customerId: string | number; turns: readonly ImportedTurn[] }[],
  threshold: number,
  conversation = false,
): Record<string, unknown> {
  if (conversation)
    return {
      suite: name,
      scenarios: byCustomer
        .filter((c) => c.turns.length > 0)
        .map((c) => conversationScenario(c.customerId, c.turns, threshold)),
    };
  const scenarios = byCustomer.flatMap(({ customerId, turns }) =>
    turns.map((t) => ({
      name: `customer ${customerId}, turn ${t.ordinal}: ${excerpt(t.humanMessage)}`,
      tags: ['imported', `customer-${customerId}`],
      ...(t.chatHistory.length > 0 && { chatHistory: t.chatHistory }),
      humanMessage: t.humanMessage,
      expect: { answer: { similar: { value: t.answer, threshold } } },
    })),
  );
  return { suite: name, scenarios };
}

async function readConversation(
  client: DroidClient,
  customerId: string | number,
  signal?: AbortSignal,
): Promise<{ messages: ConversationMessage[]; source: ImportedCustomer['source'] }> {
  const opts = signal ? { signal } : {};
  const valid = (list: unknown): ConversationMessage[] =>
    (Array.isArray(list) ? list : []).filter(
      (m): m is ConversationMessage =>
        m !== null &&
        typeof m === 'object' &&
        typeof m.type === 'string' &&
        typeof m.content === 'string' &&
        typeof m.id === 'number',
    );
  try {
    try {
      const res = await client.conversations(customerId, opts);
      return { messages: valid((res.body as { conversations?: unknown }).conversations), source: 'conversations' };
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) throw err;
      const res = await client.messages(customerId, opts);
      return { messages: valid((res.body as { messages?: unknown }).messages), source: 'messages' };
    }
  } catch (err) {
    if (err instanceof ApiError && [401, 403, 404].includes(err.status)) {
      const why =
        err.status === 401
          ? 'the token is not valid (DROID_API_TOKEN)'
          : 'a wrong droid id or customer id, or the token has no access to this customer (spec: Authentication 5)';
      throw new ConfigError(`customer ${customerId}: ${err.message}: ${why}`);
    }
    throw err;
  }
}

function schemaComment(out: string): string {
  const schema = join(process.cwd(), 'droidcheck.schema.json');
  const rel = relative(dirname(out), schema).split(sep).join('/');
  return ` yaml-language-server: $schema=${rel}`;
}

function checkOptions(o: ImportOptions): { threshold: number; customers: (string | number)[] } {
  const customers = [
    ...new Set(o.customers.map((c) => (typeof c === 'string' && /^\d{1,15}$/.test(c) ? Number(c) : c))),
  ];
  if (customers.length === 0) throw new UsageError('import needs at least one customer: --customer 1001 (repeatable)');
  const threshold = o.threshold ?? DEFAULT_IMPORT_THRESHOLD;
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1)
    throw new UsageError(`--threshold is from 0 to 1 (e.g. 0.8), not ${o.threshold}`);
  if (!/\.ya?ml$/i.test(o.out)) throw new UsageError(`--out ${o.out}: a suite file ends in .yaml or .yml`);
  if (!o.force && existsSync(o.out)) throw new UsageError(`--out ${o.out} exists; pass --force to overwrite it`);
  if (o.table && o.turns === 'conversation')
    throw new UsageError('--table writes one scenario per AI turn: use it with --turns all or last, not conversation');
  if (o.table && !o.force && existsSync(rowsFileOf(o.out)))
    throw new UsageError(`${rowsFileOf(o.out)} (the rows of --table) exists; pass --force to overwrite it`);
  if (o.baseUrl !== undefined) {
    if (o.droidId === undefined || String(o.droidId).trim() === '')
      throw new ConfigError('a real target needs a droid id: pass --droid-id N or set DROID_ID');
    if (!o.token)
      throw new ConfigError(
        'a real target needs its API token in the environment: export DROID_API_TOKEN=... (never put it in a file or a flag)',
      );
  }
  return { threshold, customers };
}

/** Runs the import (see module docs). Prints one line per customer on `io.stderr`, the summary on `io.stdout`. */
export async function runImport(options: ImportOptions, io: ImportIo): Promise<ImportResult> {
  const { threshold, customers } = checkOptions(options);
  const out = resolve(options.out);
  let emulator: Emulator | undefined;
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  try {
    let baseUrl: string, droidId: string | number, token: string;
    if (options.baseUrl === undefined) {
      // Loaded here, not at start: every command's process imports this module (cli/program.ts).
      const { createEmulator } = await import('../../emulator/create-emulator.js');
      emulator = await createEmulator(
        options.emulatorProfile !== undefined ? { profile: options.emulatorProfile } : {},
      );
      baseUrl = await emulator.listen();
      ({ droidId, token } = emulator);
    } else {
      baseUrl = options.baseUrl.replace(/\/+$/, '');
      droidId = options.droidId!;
      token = options.token!;
    }
    const client = new DroidClient({
      baseUrl,
      droidId,
      token,
      dispatcher,
      ...(options.requestTimeoutMs !== undefined && { requestTimeoutMs: options.requestTimeoutMs }),
    });
    const byCustomer: { customerId: string | number; turns: ImportedTurn[] }[] = [];
    const report: ImportedCustomer[] = [];
    for (const customerId of customers) {
      const { messages, source } = await readConversation(client, customerId, options.signal);
      const all = conversationTurns(messages);
      const turns = options.turns === 'last' ? all.slice(-1) : all;
      byCustomer.push({ customerId, turns });
      report.push({
        customerId,
        messages: messages.length,
        scenarios: options.turns === 'conversation' ? Math.min(1, turns.length) : turns.length,
        source,
      });
      io.stderr.write(
        `droidcheck: customer ${customerId}: ${messages.length} message(s), ${turns.length} AI turn(s) imported\n`,
      );
    }
    const turnCount = byCustomer.reduce((n, c) => n + c.turns.length, 0);
    const conversation = options.turns === 'conversation';
    const total = conversation ? byCustomer.filter((c) => c.turns.length > 0).length : turnCount;
    if (turnCount === 0)
      throw new UsageError(
        `nothing to import: no AI answer follows a human message in the conversations of customer(s) ${customers.join(', ')}`,
      );
    const name = options.suite ?? 'Imported conversations';
    const rowsFile = rowsFileOf(out);
    const table = options.table ? tableSuite(name, byCustomer, threshold, rowsFile) : undefined;
    const doc = new Document(table?.suite ?? importedSuite(name, byCustomer, threshold, conversation), {
      aliasDuplicateObjects: false,
    });
    visit(doc, { Seq: (key, node) => void (key === 'value' && isScalarList(node) && (node.flow = true)) });
    const source = emulator ? 'the embedded emulator' : new URL(baseUrl).origin;
    doc.commentBefore = `${schemaComment(out)}\n Imported by droidcheck import from ${source}: customer(s) ${customers.join(', ')}.\n Each ${table ? `row of ${basename(rowsFile)}` : 'scenario'} replays a recorded AI turn; "similar" needs an embedding model (docs/llm.md).`;
    const text = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
    if (table) {
      // The suite reads its rows from beside it: they are there before it is validated.
      await mkdir(dirname(out), { recursive: true });
      await writeFile(rowsFile, table.rows, 'utf8');
    }
    try {
      parseSuite(text, out);
    } catch (err) {
      if (table) await rm(rowsFile, { force: true });
      throw new InternalError(
        `import wrote a suite that does not validate: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, text, 'utf8');
    const what = table
      ? `a table of ${total} row(s) in ${join(dirname(options.out), basename(rowsFile))}`
      : `${total} scenario(s)`;
    io.stdout.write(
      `wrote ${options.out}: ${what} from ${customers.length} customer(s); run it with: npx droidcheck run ${options.out} --embedding-model <model>\n`,
    );
    return { file: out, suite: name, scenarios: total, customers: report, target: emulator ? 'emulator' : 'remote' };
  } finally {
    await emulator?.close();
    await dispatcher.close();
  }
}
