/**
 * Streams request records of a load run to `<reportDir>/records.ndjson`, one JSON object a
 * line, so records never accumulate in memory (issue 5, Memory).
 *
 * Lines are batched into chunks of ~64 KiB before reaching the file stream. `write` returns
 * false when the stream's buffer is over its high-water mark: a closed-model worker then
 * awaits `drained()` (real backpressure); the open model cannot slow its arrivals, so it keeps
 * writing and the stream buffers (its size is visible in `bufferedBytes`).
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RequestRecord } from '../runner/types.js';

export const RECORDS_FILE = 'records.ndjson';
const CHUNK_CHARS = 64 * 1024;

/** Serializes a record without its `answer` payload (kept small in load runs). */
export function recordLine(record: RequestRecord, warmup = false): string {
  const answer = record.answer;
  record.answer = undefined;
  const json = JSON.stringify(record);
  record.answer = answer;
  return warmup ? `${json.slice(0, -1)},"warmup":true}\n` : `${json}\n`;
}

export class NdjsonWriter {
  readonly path: string;
  readonly #stream: WriteStream;
  #chunk = '';
  #lines = 0;
  #closed: Promise<void> | undefined;
  #error: Error | undefined;

  private constructor(path: string, stream: WriteStream) {
    this.path = path;
    this.#stream = stream;
    stream.on('error', (err) => {
      this.#error = err;
    });
  }

  /** Creates `dir` and opens `<dir>/<file>` for writing (truncating). Rejects on an fs error. */
  static async open(dir: string, file = RECORDS_FILE): Promise<NdjsonWriter> {
    const path = join(dir, file);
    await mkdir(dirname(path), { recursive: true });
    const stream = createWriteStream(path, { flags: 'w', highWaterMark: 1024 * 1024 });
    await once(stream, 'open');
    return new NdjsonWriter(path, stream);
  }

  /** Appends one record line; false when the caller should await `drained()`. */
  writeRecord(record: RequestRecord, warmup = false): boolean {
    return this.write(recordLine(record, warmup));
  }

  /** Appends one line (must end with "\n"); false when the caller should await `drained()`. */
  write(line: string): boolean {
    this.#lines += 1;
    this.#chunk += line;
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

  /** Resolves when the stream's buffer is below its high-water mark. */
  async drained(): Promise<void> {
    if (this.#stream.writableNeedDrain && !this.#error) await once(this.#stream, 'drain');
  }

  get lines(): number {
    return this.#lines;
  }

  /** Bytes waiting in the stream plus the pending chunk (chars). */
  get bufferedBytes(): number {
    return this.#stream.writableLength + this.#chunk.length;
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
