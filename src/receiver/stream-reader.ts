/**
 * Reads a Redis Stream from a start ID with blocking XREADs on a connection of its own, handing
 * each batch to `onBatch` and waiting for it before the next read (so entries are classified in
 * stream order). drain() resolves once everything in the stream when it was called has been
 * handed over.
 */
import type { Redis } from 'ioredis';
import { sleep } from '../clock.js';
import { within } from './within.js';

/** After a failed read, the next one waits this long, ms (Redis restarting, a network blip). */
const ERROR_BACKOFF_MS = 200;

/** -1, 0 or 1 as stream ID `a` is before, equal to or after `b` (`<ms>-<seq>`). */
export function compareStreamIds(a: string, b: string): number {
  const [am = '0', as = '0'] = a.split('-');
  const [bm = '0', bs = '0'] = b.split('-');
  const x = BigInt(am) - BigInt(bm);
  if (x !== 0n) return x < 0n ? -1 : 1;
  const y = BigInt(as) - BigInt(bs);
  return y === 0n ? 0 : y < 0n ? -1 : 1;
}

export type RawEntry = [id: string, fields: string[]];

export interface StreamReaderOptions {
  reader: Redis;
  /** For XREVRANGE in drain(). */
  cmd: Redis;
  stream: string;
  /** Exclusive start (XREAD semantics). */
  from: string;
  count: number;
  blockMs: number;
  onBatch: (entries: RawEntry[]) => Promise<void>;
  onError: (err: unknown) => void;
}

export class StreamReader {
  readonly #o: StreamReaderOptions;
  #lastId: string;
  #stopped = false;
  #loop: Promise<void> | undefined;
  #drains: { target: string; resolve: () => void }[] = [];

  constructor(options: StreamReaderOptions) {
    this.#o = options;
    this.#lastId = options.from;
  }

  get lastId(): string {
    return this.#lastId;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Resolves once every entry XADDed before this call has been handed to onBatch. */
  async drain(): Promise<void> {
    const last = await this.#o.cmd.xrevrange(this.#o.stream, '+', '-', 'COUNT', 1);
    const target = last[0]?.[0];
    if (target === undefined || compareStreamIds(target, this.#lastId) <= 0) return;
    await new Promise<void>((resolve) => this.#drains.push({ target, resolve }));
  }

  /**
   * Stops reading: a blocking XREAD in progress is cut by disconnecting the reader. When Redis is
   * away, ioredis may leave a queued XREAD pending forever, so the loop is awaited at most blockMs + 1 s.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#o.reader.disconnect();
    if (this.#loop !== undefined) await within(this.#loop, this.#o.blockMs + 1_000);
    for (const d of this.#drains) d.resolve();
    this.#drains = [];
  }

  async #run(): Promise<void> {
    const { reader, stream, count, blockMs } = this.#o;
    while (!this.#stopped) {
      let reply: [string, RawEntry[]][] | null;
      try {
        reply = (await reader.xread('COUNT', count, 'BLOCK', blockMs, 'STREAMS', stream, this.#lastId)) as
          | [string, RawEntry[]][]
          | null;
      } catch (err) {
        if (this.#stopped) break;
        this.#o.onError(err);
        await sleep(ERROR_BACKOFF_MS);
        continue;
      }
      const entries = reply?.[0]?.[1] ?? [];
      if (entries.length > 0) {
        try {
          await this.#o.onBatch(entries);
        } catch (err) {
          this.#o.onError(err); // entries are classified even when a lookup failed (see stream-receiver)
        }
        this.#lastId = (entries[entries.length - 1] as RawEntry)[0];
      }
      this.#settleDrains();
    }
  }

  #settleDrains(): void {
    if (this.#drains.length === 0) return;
    this.#drains = this.#drains.filter((d) => {
      if (compareStreamIds(d.target, this.#lastId) > 0) return true;
      d.resolve();
      return false;
    });
  }
}
