/**
 * Turns a response's contract check into findings and notes (two tiers of contract;
 * docs/service-reference.md): violations of a documented shape go to the record (a finding), for
 * every body; where the body differs from a shape droidcheck chose (the spec says "not shown"), or
 * holds fields nobody named, the run keeps at most one note per endpoint and kind. Notes are looked
 * for in the first {@link NOTE_LOOK_ALL} bodies of each endpoint, then in one body in {@link
 * NOTE_LOOK_EVERY} (and no longer once the endpoint has both notes): the choice-tier check and the
 * unknown-field walk stay off the per-request path of a long load run.
 */
import { unverifiedNote, type ContractCheck } from '../contract/index.js';
import { addViolation } from './record-lists.js';
import type { ContractNote, ContractViolationRecord, RequestRecord } from './types.js';

type Violation = { path: string; message: string; value?: unknown };

type Headers = Record<string, string | string[] | undefined>;

/** Run-level notes: the first unverified shape and the first unknown fields seen per endpoint. */
/** Every body of an endpoint is looked at for notes up to this many... */
export const NOTE_LOOK_ALL = 256;
/** ...then one in this many. */
export const NOTE_LOOK_EVERY = 16;

export class ContractNotes {
  /** Notes in the order they were added; per kind, the endpoints that have one (no key string per lookup). */
  readonly #notes: ContractNote[] = [];
  readonly #byKind = new Map<ContractNote['kind'], Set<string>>();
  /** Bodies seen per endpoint, for the sampling of look(). */
  readonly #seen = new Map<string, number>();

  /** True when this body of `endpoint` is to be looked at for notes (see the module docs). */
  look(endpoint: string): boolean {
    const n = (this.#seen.get(endpoint) ?? 0) + 1;
    this.#seen.set(endpoint, n);
    return n <= NOTE_LOOK_ALL || n % NOTE_LOOK_EVERY === 0;
  }

  has(endpoint: string, kind: ContractNote['kind']): boolean {
    return this.#byKind.get(kind)?.has(endpoint) === true;
  }

  add(note: ContractNote): void {
    let endpoints = this.#byKind.get(note.kind);
    if (!endpoints) {
      endpoints = new Set();
      this.#byKind.set(note.kind, endpoints);
    }
    if (endpoints.has(note.endpoint)) return;
    endpoints.add(note.endpoint);
    this.#notes.push(note);
  }

  list(): ContractNote[] {
    return [...this.#notes];
  }
}

/**
 * Contract of a 2xx response beyond its body schema: a JSON content type (spec: "Bodies are JSON
 * (Content-Type: application/json)"). Which 2xx status is not stated, so any 2xx is accepted.
 */
function contentTypeViolations(headers: Headers | undefined): Violation[] {
  if (!headers) return [];
  const raw = headers['content-type'];
  const ct = Array.isArray(raw) ? raw[0] : raw;
  return ct && /^application\/json\b/i.test(ct)
    ? []
    : [
        {
          path: '(content-type)',
          message: 'expected Content-Type application/json (spec: Endpoints, "Bodies are JSON")',
          value: ct ?? null,
        },
      ];
}

/**
 * Adds `check`'s findings (documented-tier violations, a non-JSON content type) to `record`,
 * and its notes to `notes`: the choice-tier differences (`unverified`) and unknown fields are
 * read only for the bodies `notes.look()` picks, while that endpoint has no such note yet (both
 * are computed on access, src/contract).
 */
export function addContract(
  record: RequestRecord,
  endpoint: string,
  check: ContractCheck<unknown>,
  notes: ContractNotes | undefined,
  headers?: Headers,
  body?: unknown,
): void {
  const push = (v: Violation): void => addViolation(record, { endpoint, ...v } as ContractViolationRecord);
  for (const v of check.violations) push(v);
  for (const v of contentTypeViolations(headers)) push(v);
  if (!notes?.look(endpoint)) return;
  if (!notes.has(endpoint, 'unverified-shape')) {
    const message = unverifiedNote(endpoint, check, body);
    if (message !== undefined)
      notes.add({ endpoint, kind: 'unverified-shape', message, paths: check.unverified.map((v) => v.path) });
  }
  if (!notes.has(endpoint, 'unknown-fields')) {
    const unknown = check.unknownFields;
    if (unknown.length > 0)
      notes.add({
        endpoint,
        kind: 'unknown-fields',
        message: `fields no documentation names: ${unknown.slice(0, 8).join(', ')}${unknown.length > 8 ? ` (+${unknown.length - 8} more)` : ''}`,
        paths: [...unknown],
      });
  }
}
