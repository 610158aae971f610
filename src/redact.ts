/**
 * The one redactor (leaf module; whole tokens are replaced, never a prefix or a fragment): the
 * API token, the webhook secret, the verify token and the judge's API key never reach console
 * output, logs, reports, NDJSON records or error messages. Jobs apply it where data leaves the
 * process (the report once, each NDJSON line, stderr lines); the client applies it to error
 * excerpts.
 *
 * `createRedactor(secrets)` returns a function that replaces every *whole-token* occurrence of
 * each secret (not preceded or followed by a letter or digit), and of its URL-encoded
 * (`encodeURIComponent`, form `+`) and JSON-escaped forms, with `[REDACTED]`. Secrets shorter
 * than {@link MIN_SECRET_CHARS} are refused by the configuration (exit 2) and ignored here, so a
 * short token never garbles ordinary words. Non-secret values (a `webhookSecretSet: true`) are
 * never touched. `redactValue(value, redact)` applies it to every string (and object key) of a
 * plain JSON-like value and returns a copy; the input is not changed.
 */

export const REDACTED = '[REDACTED]';

/** Secrets shorter than this are ignored here (and refused by config/resolve.ts, exit 2). */
const MIN_SECRET_CHARS = 8;

/** Deepest nesting `redactValue` walks; deeper values are replaced by `[TOO DEEP]`. */
const MAX_DEPTH = 200;

export type Redactor = ((text: string) => string) & {
  /** True when the redactor knows at least one secret. */
  readonly active: boolean;
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every spelling of `secret` that may land in a text: raw, URL-encoded, form-encoded, JSON-escaped. */
function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const encoded = encodeURIComponent(secret);
  forms.add(encoded);
  forms.add(encoded.replace(/%20/g, '+'));
  forms.add(encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())); // lower-case hex escapes
  forms.add(JSON.stringify(secret).slice(1, -1));
  return [...forms].filter((f) => f.length >= MIN_SECRET_CHARS);
}

/**
 * Builds a redactor for `secrets` (undefined, null, empty and shorter-than-4 entries ignored).
 * The returned function takes any text and returns it with every form of every secret replaced
 * by `[REDACTED]`; longest forms first so a secret that contains another is removed whole.
 */
export function createRedactor(secrets: readonly (string | null | undefined)[]): Redactor {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (typeof s === 'string' && s.length >= MIN_SECRET_CHARS) for (const f of secretForms(s)) forms.add(f);
  }
  if (forms.size === 0) return Object.assign((text: string) => text, { active: false });
  const alternatives = [...forms]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
  const pattern = new RegExp(`(?<![A-Za-z0-9])(?:${alternatives})(?![A-Za-z0-9])`, 'g');
  const redact = (text: string): string => {
    if (typeof text !== 'string' || text.length < MIN_SECRET_CHARS) return text;
    pattern.lastIndex = 0;
    return text.replace(pattern, REDACTED);
  };
  return Object.assign(redact, { active: true });
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of `value` with `redact` applied to every string and object key of plain objects and
 * arrays (reports, records, error bodies). Errors become `{name, code?, message}` redacted;
 * other objects (Dates, class instances) are kept as they are. Cycles and nesting deeper than
 * 200 levels end as `[CYCLE]` / `[TOO DEEP]`.
 */
export function redactValue<T>(value: T, redact: (text: string) => string): T {
  const seen = new WeakSet<object>();
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return redact(v);
    if (v === null || typeof v !== 'object') return v;
    if (depth > MAX_DEPTH) return '[TOO DEEP]';
    if (seen.has(v)) return '[CYCLE]';
    if (v instanceof Error) {
      const code = (v as { code?: unknown }).code;
      return { name: v.name, ...(typeof code === 'string' ? { code } : {}), message: redact(v.message) };
    }
    if (!Array.isArray(v) && !isPlainObject(v)) return v;
    seen.add(v);
    let out: unknown;
    if (Array.isArray(v)) out = v.map((item) => walk(item, depth + 1));
    else {
      const obj: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) obj[redact(k)] = walk(item, depth + 1);
      out = obj;
    }
    seen.delete(v);
    return out;
  };
  return walk(value, 0) as T;
}

/** Environment variables that hold secrets (docs/architecture.md, Conventions). */
const SECRET_VARIABLES = [
  'DROID_API_TOKEN',
  'DROID_WEBHOOK_SECRET',
  'DROID_VERIFY_TOKEN',
  'DROID_INTENT_SECRET',
  'OPENAI_API_KEY',
] as const;

/** The secrets droidcheck reads from the environment. */
export function environmentSecrets(env: NodeJS.ProcessEnv): string[] {
  return SECRET_VARIABLES.map((name) => env[name]).filter((s): s is string => typeof s === 'string' && s.length > 0);
}

/** `redis://user:pass@host:6379/0` => `redis://user:***@host:6379/0`; an unparsable URL => `<redis url>`. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '<redis url>';
  }
}
