/**
 * The on-disk cache of verdicts and embeddings (so a rerun of unchanged answers costs no
 * model call and gives the same verdict; docs/llm.md): one JSON file per entry under
 * `<dir>/<kind>/<first two hex digits>/<sha256>.json`, keyed by the SHA-256 of the entry's key
 * parts (judge: prompt version, model, rubric, answer, context; embedding: model, text;
 * simulator: prompt version, model, persona, goal, conversation so far; attacker: prompt
 * version, model, goal, tactic, turns, seed, conversation so far). Files
 * are written to a temporary name and renamed, so a reader never sees half an entry and two
 * runs sharing a directory do not corrupt it. A missing, unreadable or malformed file is a miss;
 * a failed write is ignored (the run goes on, uncached).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * `simulator`: a simulated customer's lines; `rephrase`: red-team attacks reworded by the model;
 * `attacker`: the adaptive red-team attacker's lines (attacker.ts).
 */
type CacheKind = 'judge' | 'embedding' | 'simulator' | 'rephrase' | 'attacker';

export interface LlmCache {
  get(kind: CacheKind, key: string): Promise<unknown>;
  set(kind: CacheKind, key: string, value: unknown): Promise<void>;
}

/** The hex SHA-256 of the JSON text of `parts` (the cache key). */
export function cacheKey(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** A cache that holds nothing (`--no-cache`). */
export const NO_CACHE: LlmCache = {
  get: () => Promise.resolve(undefined),
  set: () => Promise.resolve(),
};

const ENTRY_VERSION = 1;

/** The cache under `dir` (created on the first write). */
export function createDiskCache(dir: string): LlmCache {
  const fileOf = (kind: CacheKind, key: string): string => join(dir, kind, key.slice(0, 2), `${key}.json`);
  return {
    async get(kind, key) {
      let text: string;
      try {
        text = await readFile(fileOf(kind, key), 'utf8');
      } catch {
        return undefined;
      }
      try {
        const entry = JSON.parse(text) as { v?: unknown; value?: unknown };
        return entry.v === ENTRY_VERSION ? entry.value : undefined;
      } catch {
        return undefined;
      }
    },
    async set(kind, key, value) {
      const file = fileOf(kind, key);
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await mkdir(join(dir, kind, key.slice(0, 2)), { recursive: true });
        await writeFile(tmp, `${JSON.stringify({ v: ENTRY_VERSION, value })}\n`, 'utf8');
        await rename(tmp, file);
      } catch {
        await rm(tmp, { force: true }).catch(() => undefined);
      }
    },
  };
}

/** A Float32 vector as base64 (a quarter of its JSON text). */
export function encodeVector(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

/** The inverse of `encodeVector`; undefined when `text` is not one. */
export function decodeVector(text: unknown): Float32Array | undefined {
  if (typeof text !== 'string') return undefined;
  const buf = Buffer.from(text, 'base64');
  if (buf.byteLength === 0 || buf.byteLength % 4 !== 0) return undefined;
  const copy = new Uint8Array(buf);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}
