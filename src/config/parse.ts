/**
 * The one set of parsers for values users type (flags, the config file, the environment),
 * shared by every command. Each throws UsageError (DROIDCHECK_ERR_USAGE, exit 2) naming the
 * flag, the value, and what to write instead. Durations need a unit (src/units.ts).
 */
import { UsageError } from '../errors.js';
import { durationMs, durationProblem } from '../units.js';

/** Shortest token or secret accepted: a shorter one cannot be redacted safely (whole-token redaction). */
export const MIN_SECRET_CHARS = 8;

/** A token or secret: at least MIN_SECRET_CHARS characters. `where` names the flag or the variable. */
export function parseSecret(value: string, where: string): string {
  if (value.length < MIN_SECRET_CHARS)
    throw new UsageError(
      `${where}: ${value.length} characters long; use at least ${MIN_SECRET_CHARS} (32 random characters advised: openssl rand -base64 32)`,
    );
  return value;
}

/** A duration with its unit ("500ms", "30s", "2m", "1h"; "0" alone), in ms. */
export function parseDuration(value: string | number, flag: string): number {
  const problem = durationProblem(value);
  if (problem) throw new UsageError(`${flag}: ${problem}`);
  return durationMs(value)!;
}

export interface NumberRule {
  min?: number;
  max?: number;
  integer?: boolean;
  /** The lower bound is exclusive (> min). */
  above?: boolean;
  /** What the number counts, for the message ("req/s", "requests"). */
  unit?: string;
}

/** A number within `rule` (integer, min, max). */
export function parseNumber(value: string | number, flag: string, rule: NumberRule = {}): number {
  const text = String(value).trim();
  const n = typeof value === 'number' ? value : text === '' ? NaN : Number(text);
  const { min, max, integer, above } = rule;
  const bad =
    !Number.isFinite(n) ||
    (integer && !Number.isInteger(n)) ||
    (min !== undefined && (above ? n <= min : n < min)) ||
    (max !== undefined && n > max);
  if (bad) {
    const kind = integer ? 'a whole number' : 'a number';
    const range = [
      min !== undefined ? `${above ? '>' : '>='} ${min}` : '',
      max !== undefined && max < Number.MAX_SAFE_INTEGER ? `<= ${max}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    throw new UsageError(
      `${flag}: "${text}" must be ${kind}${range ? ` ${range}` : ''}${rule.unit ? ` (${rule.unit})` : ''}`,
    );
  }
  return n;
}

/** A whole number from `min` to `max`. */
export function parseInteger(value: string | number, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  return parseNumber(value, flag, { min, max, integer: true });
}

/** A share 0..1, written `0.01` or `1%`. */
export function parseShare(value: string | number, flag: string): number {
  const text = String(value).trim();
  const n = text.endsWith('%') ? Number(text.slice(0, -1)) / 100 : Number(text);
  if (text === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(`${flag}: "${text}" must be 0..1 or a percentage like 1%`);
  return n;
}

/** `value` as a URL; UsageError `<where>: "<value>" is not a <what>; write e.g. <example>` when it is none. */
function urlOf(value: string, where: string, what: string, example: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new UsageError(`${where}: "${value}" is not a ${what}; write e.g. ${example}`);
  }
}

/** An absolute http(s) URL; trailing slashes removed. */
export function parseUrl(value: string, flag: string): string {
  const url = urlOf(value, flag, 'URL', 'https://service.example');
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag}: "${value}" must be an http:// or https:// URL`);
  return value.replace(/\/+$/, '');
}

/** One of `choices`. */
export function parseChoice<T extends string>(value: string, flag: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(
    `${flag}: "${value}" must be ${choices.slice(0, -1).join(', ')}${choices.length > 1 ? ' or ' : ''}${choices[choices.length - 1]}`,
  );
}

/** `--grep`: "/re/flags" is a RegExp, other text a case-insensitive substring. */
export function parseGrep(value: string | undefined): string | RegExp | undefined {
  if (value === undefined || value === '') return undefined;
  const m = /^\/(.+)\/([a-z]*)$/.exec(value);
  if (!m) return value;
  try {
    return new RegExp(m[1]!, m[2]);
  } catch (err) {
    throw new UsageError(`--grep: bad regular expression ${value}: ${(err as Error).message}`);
  }
}

/** Default stream key of `droidcheck receive` and `--deliveries`. */
export const DEFAULT_STREAM = 'droidcheck:deliveries';

/**
 * A Redis URL, `redis://[user[:password]@]host[:port][/db]` or `rediss://` (TLS). A password is
 * accepted only from the environment (`fromEnv`): a flag shows in the process list and in shell
 * history. Throws UsageError naming `where`.
 */
export function parseRedisUrl(value: string, where: string, fromEnv = false): string {
  const url = urlOf(value, where, 'Redis URL', 'redis://127.0.0.1:6379/0');
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new UsageError(
      `${where}: "${url.protocol}//..." must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379/0`,
    );
  if (url.hostname === '')
    throw new UsageError(`${where}: the Redis URL has no host; write e.g. redis://127.0.0.1:6379/0`);
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db))
    throw new UsageError(`${where}: "/${db}" is not a database number; write e.g. redis://127.0.0.1:6379/0`);
  if (url.password !== '' && !fromEnv) {
    throw new UsageError(
      `${where}: a Redis password in a flag shows in the process list; export DROIDCHECK_REDIS_URL=redis://:PASSWORD@host:6379/0 instead (receive without --redis, and --deliveries without a URL, read it)`,
    );
  }
  return value;
}

/** The password of a Redis URL (for redaction), or undefined. */
export function redisPassword(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const p = decodeURIComponent(new URL(url).password);
    return p === '' ? undefined : p;
  } catch {
    return undefined;
  }
}

/** A stream key: non-empty, no spaces. */
export function parseStreamKey(value: string, where: string): string {
  if (!/^\S{1,200}$/.test(value))
    throw new UsageError(`${where}: "${value}" must be a Redis key without spaces, e.g. droidcheck:deliveries`);
  return value;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * `--start-at`: an ISO 8601 instant with its offset (`2026-05-01T12:00:00Z`,
 * `2026-05-01T14:00:00+02:00`): every shard must read the same instant, so a local time without
 * an offset is refused. Returns the instant as `toISOString()` (UTC). Throws UsageError.
 */
export function parseInstant(value: string, flag: string): string {
  const text = value.trim();
  const ms = ISO_INSTANT.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) {
    throw new UsageError(
      `${flag}: "${value}" is not an ISO 8601 time with its offset; write e.g. 2026-05-01T12:00:00Z, or in a shell: $(date -u -d '+30 seconds' +%FT%TZ)`,
    );
  }
  return new Date(ms).toISOString();
}
