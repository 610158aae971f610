/**
 * The NDJSON stream of records (`results.ndjson`), the same for every job: one JSON object a
 * line, written as records end, so a load run keeps no records in memory (a long load run would
 * otherwise grow without bound).
 *
 * - Each record is serialised once: its `answer` apart (to apply the answer policy without a
 *   second pass), the rest with `JSON.stringify`; warm-up records carry `"warmup":true`.
 * - Redaction happens here, where the data leaves the process: the line is passed through the
 *   run's redactor (whole tokens), with no deep copy of the record.
 * - Lines are batched into ~64 KiB chunks; `write` returns false when the file stream is over
 *   its high-water mark, and `drained()` resolves when it is not (a closed-model worker waits for
 *   it; the open model never slows its arrivals, so the stream buffers).
 * - Answer policy: `all` (answers up to `maxAnswerChars`, default 16,384; a longer one becomes
 *   `answerOmitted: <chars>`), `failed` (only records that did not pass keep it) or `none`.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { makeDir } from './make-dir.js';
import type { RequestRecord } from './run-types.js';

export const NDJSON_RESULTS_FILE = 'results.ndjson';
const CHUNK_CHARS = 64 * 1024;

export type AnswerPolicy = 'all' | 'failed' | 'none';

export interface NdjsonOptions {
  answers?: AnswerPolicy;
  /** A longer answer (JSON characters) is left out; default 16,384. */
  maxAnswerChars?: number;
  /** Applied to every line (src/redact.ts); default none. */
  redact?: (text: string) => string;
}

/** One line of JSON for `record` (with "\n"), per the answer policy. */
export function recordLine(record: RequestRecord, warmup: boolean, opts: NdjsonOptions = {}): string {
  const policy = opts.answers ?? 'all';
  const answer = record.answer;
  let answerJson: string | undefined;
  if (answer !== undefined && (policy === 'all' || (policy === 'failed' && !record.passed))) {
    answerJson = JSON.stringify(answer);
    if (answerJson.length > (opts.maxAnswerChars ?? 16_384)) answerJson = `null,"answerOmitted":${answerJson.length}`;
  }
  record.answer = undefined;
  let json: string;
  try {
    json = JSON.stringify(record);
  } finally {
    record.answer = answer;
  }
  const extra = `${answerJson === undefined ? '' : `,"answer":${answerJson}`}${warmup ? ',"warmup":true' : ''}`;
  const line = `${extra === '' ? json : `${json.slice(0, -1)}${extra}}`}\n`;
  return opts.redact ? opts.redact(line) : line;
}

export class NdjsonWriter {
  readonly path: string;
  readonly #stream: WriteStream;
  readonly #opts: NdjsonOptions;
  #chunk = '';
  #lines = 0;
  #closed: Promise<void> | undefined;
  #error: Error | undefined;

  private constructor(path: string, stream: WriteStream, opts: NdjsonOptions) {
    this.path = path;
    this.#stream = stream;
    this.#opts = opts;
    stream.on('error', (err) => {
      this.#error ??= err;
    });
  }

  /** Creates the directory and opens `path` for writing (truncating). Rejects on an fs error. */
  static async open(path: string, opts: NdjsonOptions = {}): Promise<NdjsonWriter> {
    await makeDir(dirname(path));
    const stream = createWriteStream(path, { flags: 'w', highWaterMark: 1024 * 1024 });
    await once(stream, 'open');
    return new NdjsonWriter(path, stream, opts);
  }

  /** Appends one record; false when the caller should await `drained()`. */
  writeRecord(record: RequestRecord, warmup = false): boolean {
    if (this.#closed) return true;
    this.#lines += 1;
    this.#chunk += recordLine(record, warmup, this.#opts);
    if (this.#chunk.length >= CHUNK_CHARS) return this.flush();
    return !this.#stream.writableNeedDrain;
  }

  /** Hands the pending chunk to the file stream; false when the stream is over its high-water mark. */
  flush(): boolean {
    if (this.#chunk.length === 0 || this.#closed) return !this.#stream.writableNeedDrain;
    const chunk = this.#chunk;
    this.#chunk = '';
    return this.#stream.write(chunk);
  }

  /** Resolves when the stream's buffer is below its high-water mark; undefined when it is now. */
  drained(): Promise<void> | undefined {
    if (!this.#stream.writableNeedDrain || this.#error) return undefined;
    return once(this.#stream, 'drain').then(() => undefined);
  }

  get lines(): number {
    return this.#lines;
  }

  /** Flushes and closes the file. Rejects with the stream's error, if one happened. Idempotent. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.flush();
      this.#closed = new Promise<void>((resolve, reject) => {
        this.#stream.end(() => (this.#error ? reject(this.#error) : resolve()));
      });
    }
    return this.#closed;
  }
}
