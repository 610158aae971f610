/**
 * The one set of parsers for values users type (flags, the config file, the environment),
 * shared by every command. Each throws UsageError (DROIDCHECK_ERR_USAGE, exit 2) naming the
 * flag, the value, and what to write instead. Durations need a unit (src/units.ts).
 */
import { UsageError } from '../errors.js';
import { durationMs, durationProblem } from '../units.js';

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
  const bad = !Number.isFinite(n) || (integer && !Number.isInteger(n)) || (min !== undefined && (above ? n <= min : n < min)) || (max !== undefined && n > max);
  if (bad) {
    const kind = integer ? 'a whole number' : 'a number';
    const range = [min !== undefined ? `${above ? '>' : '>='} ${min}` : '', max !== undefined && max < Number.MAX_SAFE_INTEGER ? `<= ${max}` : ''].filter(Boolean).join(' and ');
    throw new UsageError(`${flag}: "${text}" must be ${kind}${range ? ` ${range}` : ''}${rule.unit ? ` (${rule.unit})` : ''}`);
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
  if (text === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${flag}: "${text}" must be 0..1 or a percentage like 1%`);
  return n;
}

/** An absolute http(s) URL; trailing slashes removed. */
export function parseUrl(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag}: "${value}" is not a URL; write e.g. https://service.example`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag}: "${value}" must be an http:// or https:// URL`);
  return value.replace(/\/+$/, '');
}

/** One of `choices`. */
export function parseChoice<T extends string>(value: string, flag: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag}: "${value}" must be ${choices.slice(0, -1).join(', ')}${choices.length > 1 ? ' or ' : ''}${choices[choices.length - 1]}`);
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
