/**
 * `createNdjsonWriter(path)`: streams records as NDJSON (one JSON object a line), appending to
 * `path`. `write` resolves once the stream can take more (backpressure: it waits for 'drain').
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface NdjsonWriterOptions {
  /** A record's `answer` whose JSON is longer than this (characters) is left out; default 16384. */
  maxAnswerChars?: number;
}

export interface NdjsonWriter<T = unknown> {
  readonly path: string;
  /** Lines written so far. */
  readonly lines: number;
  /** Appends `record` as one line; resolves when the stream has room again. Rejects after a stream error or close(). */
  write(record: T): Promise<void>;
  /** Flushes and closes the file. Idempotent. */
  close(): Promise<void>;
}

export const NDJSON_RESULTS_FILE = 'results.ndjson';

/** One line of JSON for `record`; a large `answer` is replaced by `answerOmitted: <chars>`. */
export function toNdjsonLine(record: unknown, maxAnswerChars = 16_384): string {
  if (record && typeof record === 'object' && 'answer' in record) {
    const { answer, ...rest } = record as { answer: unknown };
    const answerJson = JSON.stringify(answer) ?? '';
    if (answerJson.length > maxAnswerChars) return `${JSON.stringify({ ...rest, answerOmitted: answerJson.length })}\n`;
  }
  return `${JSON.stringify(record)}\n`;
}

/**
 * Opens `path` for appending (creating its directory) and returns the writer.
 * Errors of the file (e.g. EACCES) reject the pending and every later `write`/`close`.
 */
export function createNdjsonWriter<T = unknown>(path: string, opts: NdjsonWriterOptions = {}): NdjsonWriter<T> {
  mkdirSync(dirname(path), { recursive: true });
  const stream = createWriteStream(path, { flags: 'a', encoding: 'utf8' });
  let failure: Error | undefined;
  let closing: Promise<void> | undefined;
  let lines = 0;
  stream.on('error', (err) => {
    failure ??= err;
  });

  const waitDrain = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const done = (err?: Error): void => {
        stream.off('drain', onDrain);
        stream.off('error', onError);
        if (err) reject(err);
        else resolve();
      };
      const onDrain = (): void => done();
      const onError = (err: Error): void => done(err);
      stream.on('drain', onDrain);
      stream.on('error', onError);
    });

  return {
    path,
    get lines() {
      return lines;
    },
    async write(record) {
      if (failure) throw failure;
      if (closing) throw new Error(`ndjson writer for ${path} is closed`);
      lines += 1;
      if (!stream.write(toNdjsonLine(record, opts.maxAnswerChars))) await waitDrain();
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        if (failure) {
          stream.destroy();
          reject(failure);
          return;
        }
        stream.once('error', reject);
        stream.end(() => resolve());
      });
      return closing;
    },
  };
}
