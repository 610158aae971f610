/**
 * The Redis Stream entry of one delivery (sharded load, docs/scale.md), written by a publishing
 * HTTP receiver (XADD) and read by shards' stream receivers (XREAD). Fields, all strings:
 *
 * | field   | value |
 * |---------|-------|
 * | v       | `1`, the format version |
 * | route   | `answer` (answer webhook), `message` (message forwarding), `intent` (intent webhook) |
 * | verdict | `ok` (accepted, answered 200) or `bad-secret` (refused: wrong or missing `?secret=`, `?verify_token=` or body `secret`; answered 401/403) |
 * | at      | arrival at the receiver, wall clock, integer microseconds since the Unix epoch |
 * | skew    | Redis TIME minus the receiver's wall clock, us, as the receiver last measured it |
 * | rtt     | round trip of that measurement, us (the skew is known within +- rtt/2) |
 * | rcv     | receiver id (`<hostname>:<pid>` by default) |
 * | rid     | requestId, when the body is an object with a string `requestId` (answer route) |
 * | cid     | customerId (message: `customerId`; intent: `customer_id`), when a number or string |
 * | body    | the body: as received (answer, message); intent: JSON with a string `secret` replaced by `[REDACTED]` |
 *
 * Secrets and tokens are never written: `?secret=` and `?verify_token=` are query parameters (not
 * stored) and an intent's body secret is redacted. Malformed deliveries (400/413) are not written.
 */
const ENTRY_VERSION = '1';

export type Route = 'answer' | 'message' | 'intent';
export type Verdict = 'ok' | 'bad-secret';

export interface StreamEntry {
  /** The stream entry ID (`<ms>-<seq>`). */
  id: string;
  route: Route;
  verdict: Verdict;
  /** Arrival, receiver wall clock, us since the epoch. */
  atUs: number;
  /** Redis TIME minus the receiver's clock, us (0 when the receiver did not say). */
  skewUs: number;
  /** Round trip of the receiver's skew measurement, us. */
  rttUs: number;
  receiverId: string;
  requestId: string | undefined;
  customerId: string | undefined;
  body: string;
}

export type EntryFields = Omit<StreamEntry, 'id'>;

/** Flat [field, value, ...] list for XADD. */
export function encodeEntry(e: EntryFields): string[] {
  const out = ['v', ENTRY_VERSION, 'route', e.route, 'verdict', e.verdict, 'at', String(Math.round(e.atUs))];
  out.push('skew', String(Math.round(e.skewUs)), 'rtt', String(Math.round(e.rttUs)), 'rcv', e.receiverId);
  if (e.requestId !== undefined) out.push('rid', e.requestId);
  if (e.customerId !== undefined) out.push('cid', e.customerId);
  out.push('body', e.body);
  return out;
}

const ROUTES: readonly string[] = ['answer', 'message', 'intent'];
const VERDICTS: readonly string[] = ['ok', 'bad-secret'];

function int(value: string | undefined): number | undefined {
  if (value === undefined || !/^-?\d+$/.test(value)) return undefined;
  return Number(value);
}

/** Decodes an XREAD entry; undefined when it is not a version-1 delivery entry (counted malformed). */
export function decodeEntry(id: string, fields: readonly string[]): StreamEntry | undefined {
  const f = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) f.set(fields[i] as string, fields[i + 1] as string);
  const route = f.get('route');
  const verdict = f.get('verdict');
  const atUs = int(f.get('at'));
  const body = f.get('body');
  if (f.get('v') !== ENTRY_VERSION || route === undefined || !ROUTES.includes(route)) return undefined;
  if (verdict === undefined || !VERDICTS.includes(verdict) || atUs === undefined || body === undefined)
    return undefined;
  return {
    id,
    route: route as Route,
    verdict: verdict as Verdict,
    atUs,
    skewUs: int(f.get('skew')) ?? 0,
    rttUs: int(f.get('rtt')) ?? 0,
    receiverId: f.get('rcv') ?? '',
    requestId: f.get('rid'),
    customerId: f.get('cid'),
    body,
  };
}
