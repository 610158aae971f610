/**
 * The checklist of `droidcheck doctor` and of the run's preflight, as data: each check reads
 * probe results (doctor-probe.ts) and says pass / warn / fail / skip, what was seen and, for a
 * warning or a failure, the fix. Pure: no I/O, no token or secret in any text (lengths only).
 *
 * Where each rule comes from: 401 `Invalid API key` and the three 400s of the async endpoint
 * (spec: Errors; docs thirdparty/get-droid-answer-async.mdx, "Error Responses"; read by meaning,
 * not word for word: refusalKind),
 * 403 for a wrong droid or customer (spec: Authentication 5; docs endpoint.mdx FAQ), the
 * secret's advised length (spec: Limits, "at least 32 characters advised"; the verify token:
 * docs receiving-webhook.mdx, "at least 32 characters"), droidcheck's own minimum of 8
 * (config/resolve.ts: shorter ones cannot be redacted safely).
 */
import { MIN_SECRET_CHARS } from '../../config/index.js';
import { formatMs } from '../../units.js';
import type { ProbeAnswer, ProbeResult } from './probe.js';
import type { SecretBearingConfig } from '../pipeline/job-secrets.js';
import type { NetworkEstimate } from '../pipeline/network.js';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

/** One line of the checklist. */
export interface DoctorCheck {
  id: CheckId;
  /** e.g. `token accepted`. */
  title: string;
  status: CheckStatus;
  /** What was seen. */
  detail: string;
  /** How to fix a warning or a failure. */
  fix?: string;
}

/** Secret length the service's docs advise (spec: Limits; docs receiving-webhook.mdx). */
const ADVISED_SECRET_CHARS = 32;

/** The 400 of get-droid-answer-async to a humanMessage without content (spec: Errors; async docs page, word for word). */
const MSG_INVALID_HUMAN_MESSAGE = 'Invalid humanMessage format';

/** Each check's title, in the checklist's order (inOrder). */
const TITLES = {
  reachable: 'reachable',
  api: 'answers JSON',
  token: 'token accepted',
  droid: 'droid id',
  'async-settings': 'async settings',
  'test-customer': 'test customer',
  'answer-webhook': 'answer webhook',
  'webhook-secret': 'webhook secret',
  'verify-token': 'verify token',
  'intent-secret': 'intent secret',
  clock: 'clock',
  network: 'network round trip',
  'round-trip': 'round trip',
  'message-webhook': 'message webhook',
} as const;

export type CheckId = keyof typeof TITLES;

/** The checks of `checks` in the checklist's order (TITLES), the last of each id. */
export const inOrder = (checks: readonly DoctorCheck[]): DoctorCheck[] =>
  (Object.keys(TITLES) as CheckId[]).flatMap((id) => checks.findLast((c) => c.id === id) ?? []);

export function check(id: CheckId, status: CheckStatus, detail: string, fix?: string): DoctorCheck {
  return { id, title: TITLES[id], status, detail, ...(fix !== undefined && { fix }) };
}

/** `check` with its id given once, for a function that words several lines of one check. */
const checkOf =
  (id: CheckId) =>
  (status: CheckStatus, detail: string, fix?: string): DoctorCheck =>
    check(id, status, detail, fix);

const answered = (p: ProbeResult | undefined): p is ProbeAnswer => p?.kind === 'answer';
const statusText = (p: ProbeAnswer): string =>
  `HTTP ${p.status}${p.error ? ` ${p.error}` : ''}${p.message ? `: ${p.message}` : ''}`;

/** The TCP connect before any HTTP: its time, or why it failed. */
export type TcpResult =
  | { ok: true; ms: number; host: string; port: number }
  | { ok: false; code: string | undefined; message: string; host: string; port: number };

/** reachable: a TCP connect, then any HTTP answer to GET channels. */
export function reachableCheck(tcp: TcpResult, channels: ProbeResult | undefined): DoctorCheck {
  const where = `${tcp.host}:${tcp.port}`;
  const reachable = checkOf('reachable');
  if (!tcp.ok) {
    const fix =
      tcp.code === 'ECONNREFUSED'
        ? `nothing listens on ${where}: check --base-url (host and port) and that the service is up`
        : tcp.code === 'ENOTFOUND' || tcp.code === 'EAI_AGAIN'
          ? `the host name does not resolve: check --base-url`
          : tcp.code === undefined
            ? `no answer from ${where}: a firewall, a wrong host or no network; check --base-url`
            : `check --base-url (host and port), your network and that the service is up`;
    return reachable('fail', `TCP connect to ${where} failed (${tcp.code ?? tcp.message})`, fix);
  }
  if (!answered(channels)) {
    return reachable(
      'fail',
      `TCP connect to ${where} in ${formatMs(tcp.ms)}, but no HTTP answer to GET channels (${channels?.kind === 'no-answer' ? (channels.code ?? channels.message) : 'not sent'})`,
      'something else listens there, or it speaks TLS: check the scheme (https:// for a TLS port) and the port of --base-url',
    );
  }
  return reachable(
    'pass',
    `TCP connect to ${where} in ${formatMs(tcp.ms)}; HTTP ${channels.status} from GET channels in ${formatMs(channels.elapsedMs)}`,
  );
}

const isHtml = (p: ProbeAnswer): boolean => p.contentType.includes('html') || p.excerpt.trimStart().startsWith('<');

/** answers JSON: GET channels answered the API's JSON (not an HTML page, not a missing route). */
export function apiCheck(channels: ProbeResult | undefined): DoctorCheck {
  const api = checkOf('api');
  if (!answered(channels)) return api('skip', 'needs an HTTP answer');
  const root = '--base-url must be the service root (e.g. https://your-dealdroid.com), without /api/droids/...';
  if (channels.json === undefined) {
    if (isHtml(channels))
      return api(
        'fail',
        `GET channels answered an HTML page (HTTP ${channels.status}, ${channels.contentType || 'no content-type'}), not JSON`,
        `a web page (a login page, a proxy's error page?) answers there: ${root}`,
      );
    return api(
      'fail',
      `GET channels answered HTTP ${channels.status} with a body that is not JSON (${channels.contentType || 'no content-type'})`,
      root,
    );
  }
  if (channels.status === 404 || channels.status === 405)
    return api('fail', `GET channels: ${statusText(channels)}`, `no such route: ${root}`);
  if (channels.status === 429)
    return api(
      'warn',
      `GET channels: ${statusText(channels)} (rate limited)`,
      "the plan's rate limit was reached: wait, or lower the load of other clients on this token",
    );
  if (channels.status >= 500)
    return api(
      'fail',
      `GET channels: ${statusText(channels)}`,
      'the service is up but failing: try again later, or ask its operator',
    );
  return api('pass', `GET channels: HTTP ${channels.status}, ${channels.contentType || 'JSON without a content-type'}`);
}

/** token accepted (401) and droid id (403), from GET channels and the async probe. */
export function accessChecks(tokenSet: boolean, probes: readonly (ProbeResult | undefined)[]): DoctorCheck[] {
  const answers = probes.filter(answered);
  const refused = answers.find((p) => p.status === 401);
  const denied = answers.find((p) => p.status === 403);
  const api = answers.filter((p) => p.json !== undefined && p.status !== 404 && p.status !== 405);
  const tokenCheck = checkOf('token');
  let token: DoctorCheck;
  if (!tokenSet)
    token = tokenCheck(
      'fail',
      'DROID_API_TOKEN is not set',
      'export DROID_API_TOKEN=... (dashboard: Automation Panel, "When Receive message from Third Party"), or put it in .env; never in a flag or a file of the repository',
    );
  else if (refused)
    token = tokenCheck(
      'fail',
      `${refused.what}: ${statusText(refused)}`,
      'the token was refused: check DROID_API_TOKEN (regenerating the token in the Automation Panel invalidates the old one at once)',
    );
  else if (api.length === 0) token = tokenCheck('skip', 'needs a JSON answer of the API');
  else
    token = tokenCheck(
      'pass',
      `accepted by ${api.map((p) => `${p.what} (HTTP ${p.status}${p.status === 400 && p.message && refusalKind(p.message) === 'invalid-message' ? ` ${p.message}, as intended` : ''})`).join(' and ')}`,
    );
  let droid: DoctorCheck;
  if (token.status !== 'pass') droid = check('droid', 'skip', 'needs an accepted token');
  else if (denied)
    droid = check(
      'droid',
      'fail',
      `${denied.what}: ${statusText(denied)}`,
      "access denied: check --droid-id (the number in the dashboard's /droids/<id>/ addresses) and that this token belongs to that droid",
    );
  else droid = check('droid', 'pass', 'the token may use this droid');
  return [token, droid];
}

/** What a 400 of the async endpoint says is wrong, read by meaning (refusalKind). */
export type RefusalKind = 'invalid-message' | 'test-customer' | 'answer-webhook' | 'other';

// The service's docs have English and Thai pages, and its wording changes (a target answered
// "Webhook URL for AI answers is not configured. Please set up the 'AI answer ready' webhook in
// the integration settings first." where the docs print "thirdPartyAnswerWebhook is not
// configured..."): keywords, not the exact sentence, decide which setting a refusal names.
const INVALID_MESSAGE = /^\s*invalid\s+human\s*message\s+format\b/i;
const TEST_CUSTOMER = /test[\s_-]*customer|ลูกค้า\s*(?:สำหรับ)?\s*ทดสอบ/i;
const ANSWER_WEBHOOK = /web[\s_-]*hook|เว็บ\s*ฮุ[คก]|answer[\s_-]*ready|integrations?\b|การเชื่อมต่อ/i;

/** The text a refusal carries, as the service wrote it: `message`, else `error`, else the body's first characters. */
function refusalText(p: ProbeAnswer): string {
  return (p.message ?? p.error ?? p.excerpt ?? '').trim();
}

/**
 * Which setting a 400 of get-droid-answer-async names: `invalid-message` for the documented
 * `Invalid humanMessage format` (the body was refused, no setting is missing), then the test
 * customer ("test customer", "ลูกค้าทดสอบ") before the answer webhook ("webhook", "เว็บฮุค",
 * "AI answer ready", "integration"), `other` for anything else.
 */
export function refusalKind(text: string): RefusalKind {
  if (INVALID_MESSAGE.test(text)) return 'invalid-message';
  if (TEST_CUSTOMER.test(text)) return 'test-customer';
  if (ANSWER_WEBHOOK.test(text)) return 'answer-webhook';
  return 'other';
}

/** `HTTP 400 Bad Request: <message>`, or for a body that is not `{error, message}`, `HTTP 400: "<first characters>"`. */
function quoteAnswer(p: ProbeAnswer): string {
  if (p.error !== undefined || p.message !== undefined) return statusText(p);
  const body = p.excerpt.replace(/\s+/g, ' ').trim();
  return body === '' ? `HTTP ${p.status} with an empty body` : `HTTP ${p.status}: "${body}"`;
}

/** The fix of a missing answer webhook; `webhookUrl`: the URL to set, when known. */
export function answerWebhookFix(webhookUrl: string | undefined): string {
  return `set the answer webhook URL in Settings > Integrations, "When AI Answer Ready"${webhookUrl ? `, to ${webhookUrl}` : ''}`;
}

/** test customer and answer webhook, both `status` for the same reason. */
export const bothChecks = (status: CheckStatus, why: string): DoctorCheck[] => [
  check('test-customer', status, why),
  check('answer-webhook', status, why),
];

/** The fix of a missing test customer. */
const TEST_CUSTOMER_FIX =
  'give the droid a test customer in its settings: get-droid-answer-async always answers as the test customer (spec, endpoint 9)';

/**
 * The checks a 400 of get-droid-answer-async fails, by what it says (refusalKind), quoting the
 * service's own words in `what`; undefined for `Invalid humanMessage format`.
 */
export function refusalChecks(
  kind: RefusalKind,
  what: string,
  webhookUrl: string | undefined,
): DoctorCheck[] | undefined {
  if (kind === 'answer-webhook')
    return [
      check('test-customer', 'skip', 'not reached: the service stopped at the answer webhook'),
      check('answer-webhook', 'fail', what, answerWebhookFix(webhookUrl)),
    ];
  if (kind === 'test-customer')
    return [
      check('test-customer', 'fail', what, TEST_CUSTOMER_FIX),
      check('answer-webhook', 'skip', 'not reached: the service stopped at the test customer'),
    ];
  if (kind === 'other') {
    const fix = `the service refused the request for a reason of its own settings: do what its message says (the async endpoint also needs ${answerWebhookFix(webhookUrl).replace(/^set /, '')} and a test customer in the droid's settings)`;
    return [check('async-settings', 'fail', what, fix), ...bothChecks('skip', 'not verified')];
  }
  return undefined;
}

/**
 * test customer and answer webhook, from the async probe's answer (doctor-probe.ts,
 * INVALID_ASYNC_BODY). To that content-less message only 400 `Invalid humanMessage format`
 * passes: it shows the service got past its settings checks or checks the body first (module
 * docs of doctor.ts). Any other 400 is a configuration failure, quoted as the service wrote it
 * and classified by meaning (refusalKind), exit 2; another 4xx warns and quotes it.
 */
export function asyncConfigChecks(
  asyncProbe: ProbeResult | undefined,
  access: readonly DoctorCheck[],
  webhookUrl: string | undefined,
): DoctorCheck[] {
  if (!answered(asyncProbe) || access.some((c) => c.status !== 'pass'))
    return bothChecks('skip', 'needs an accepted token and droid');
  const what = `get-droid-answer-async: ${quoteAnswer(asyncProbe)}`;
  const webhook = checkOf('answer-webhook');
  if (asyncProbe.status === 400) {
    const refused = refusalChecks(refusalKind(refusalText(asyncProbe)), what, webhookUrl);
    if (refused) return refused;
    return bothChecks(
      'skip',
      'not verified: the service checked the (deliberately invalid) message first, so nothing was queued; --round-trip verifies it with one real answer',
    );
  }
  if (asyncProbe.status >= 200 && asyncProbe.status < 300) {
    const id = (asyncProbe.json as { requestId?: unknown } | undefined)?.requestId;
    return [
      check('test-customer', 'pass', 'configured (the async endpoint accepted a request)'),
      webhook(
        'warn',
        `configured, but the service accepted even a humanMessage without content and queued it${typeof id === 'string' ? ` (${id})` : ''}: one answer will reach the webhook`,
        'nothing to fix here; the service does not refuse that body as its docs say (400 Invalid humanMessage format)',
      ),
    ];
  }
  if (asyncProbe.status === 404 || asyncProbe.status === 405) {
    return [
      check('test-customer', 'skip', 'needs the async endpoint'),
      webhook('fail', what, 'the async endpoint is missing at this address: check --base-url'),
    ];
  }
  return [
    check('test-customer', 'skip', 'not verified'),
    webhook(
      'warn',
      `${what}, to a message without content (the docs say 400 ${MSG_INVALID_HUMAN_MESSAGE})`,
      'run droidcheck doctor --round-trip to try one real request',
    ),
  ];
}

/** The checks that only get-droid-answer-async needs (spec 9, Behaviour 3 and 4; Errors). */
const ASYNC_ONLY: readonly CheckId[] = ['async-settings', 'test-customer', 'answer-webhook'];

/**
 * The checks of a job that sends nothing to get-droid-answer-async (every answer request sync,
 * or call steps only): its settings (the answer webhook, the test customer) are that
 * endpoint's alone (spec 9), so their failures stop nothing and become warnings saying so.
 */
export function asyncNotUsed(checks: readonly DoctorCheck[]): DoctorCheck[] {
  return checks.map((c) =>
    c.status === 'fail' && ASYNC_ONLY.includes(c.id)
      ? {
          ...c,
          status: 'warn',
          detail: `${c.detail} (not needed now: no request of this job goes to the async endpoint)`,
        }
      : c,
  );
}

/** What a secret is for: its variable, where the service holds the same value, and what it protects. */
interface SecretRole {
  id: 'webhook-secret' | 'verify-token' | 'intent-secret';
  variable: string;
  /** Where the same value is set in the service. */
  where: string;
  /** What happens without it. */
  without: string;
}

const SECRET_ROLES: readonly SecretRole[] = [
  {
    id: 'webhook-secret',
    variable: 'DROID_WEBHOOK_SECRET',
    where: 'Settings > Integrations, "When AI Answer Ready", Webhook Secret',
    without:
      'the receiver accepts every answer delivery: anyone who finds the webhook URL can post answers (spec: Authentication 7)',
  },
  {
    id: 'verify-token',
    variable: 'DROID_VERIFY_TOKEN',
    where: "the Automation Panel's message webhook, Verify Token",
    without:
      "the message webhook (send steps that wait for the bot's reply) accepts every POST (docs receiving-webhook.mdx)",
  },
  {
    id: 'intent-secret',
    variable: 'DROID_INTENT_SECRET',
    where: "each intent's third-party URL, API Secret Key",
    without: 'intent webhooks are accepted without a secret (docs intent-webhook.mdx)',
  },
];

/**
 * A secret's length rule: at least 8 characters (droidcheck refuses shorter ones), at least 32
 * advised. Unset: a warning (the intent secret: no line). `generated`: the embedded emulator
 * uses a random one when unset.
 */
function secretCheck(role: SecretRole, value: string | undefined, generated: boolean): DoctorCheck | undefined {
  const say = checkOf(role.id);
  const make = `set ${role.variable} to ${ADVISED_SECRET_CHARS} random characters (openssl rand -base64 32) and the same value in ${role.where}`;
  if (value === undefined || value === '') {
    if (role.id === 'intent-secret') return undefined;
    if (generated) return say('pass', `${role.variable} not set: the embedded emulator uses a random one`);
    return say('warn', `${role.variable} is not set: ${role.without}`, make);
  }
  if (value.length < MIN_SECRET_CHARS)
    return say(
      'fail',
      `${role.variable} is ${value.length} characters long; droidcheck needs at least ${MIN_SECRET_CHARS} (run and load refuse it)`,
      make,
    );
  if (value.length < ADVISED_SECRET_CHARS)
    return say(
      'warn',
      `${role.variable} is ${value.length} characters long; at least ${ADVISED_SECRET_CHARS} are advised`,
      make,
    );
  return say('pass', `${role.variable} set, ${value.length} characters`);
}

/**
 * secretCheck of each of a job's secrets (null: not set); `unset: false` leaves out the ones not
 * set. `generated`: as secretCheck.
 */
export function secretChecks(s: SecretBearingConfig, generated: boolean, unset = true): DoctorCheck[] {
  const values = { 'webhook-secret': s.webhookSecret, 'verify-token': s.verifyToken, 'intent-secret': s.intentSecret };
  return SECRET_ROLES.flatMap((role) => {
    const value = values[role.id] ?? undefined;
    return (unset || value ? secretCheck(role, value, generated) : undefined) ?? [];
  });
}

/**
 * clock: the service's `Date` header (second resolution, truncated: the true time lies in
 * [D, D + 1 s)) against this machine's wall clock at the probe's midpoint. Skew = D + 0.5 s -
 * midpoint, known within +-(0.5 s + half the probe's time). A warning past `maxSkewMs`.
 */
export function clockCheck(answer: ProbeResult | undefined, maxSkewMs: number): DoctorCheck {
  const clock = checkOf('clock');
  if (!answered(answer)) return clock('skip', 'needs an HTTP answer');
  const serverMs = answer.date === undefined ? NaN : Date.parse(answer.date);
  if (Number.isNaN(serverMs))
    return clock(
      'skip',
      answer.date === undefined ? 'the service sent no Date header' : `unreadable Date header "${answer.date}"`,
    );
  const midpoint = answer.startedWallMs + answer.elapsedMs / 2;
  const skewMs = serverMs + 500 - midpoint;
  const within = 500 + answer.elapsedMs / 2;
  const text = `${Math.abs(skewMs) < within ? 'in step with' : `${formatMs(Math.abs(skewMs))} ${skewMs > 0 ? 'ahead of' : 'behind'}`} this machine's (±${formatMs(within)}, from the Date header)`;
  if (Math.abs(skewMs) > maxSkewMs)
    return clock(
      'warn',
      `the service's clock is ${text}; more than ${formatMs(maxSkewMs)}`,
      "synchronise this machine's clock (NTP): timestamps of payloads, reports and logs will not line up otherwise",
    );
  return clock('pass', `the service's clock is ${text}`);
}

/** network round trip: the estimate ackServer subtracts (network.ts). */
export function networkCheck(
  estimate: NetworkEstimate | undefined,
  problem: string | undefined,
  where: string,
  remote: boolean,
): DoctorCheck {
  if (!estimate) return check('network', 'skip', problem ?? 'needs a reachable target');
  const use = remote
    ? 'run and load judge the ack limit on ack minus this (ackServer)'
    : "the embedded emulator's ack limit is judged on ack itself";
  return check(
    'network',
    'pass',
    `${formatMs(estimate.rttMs)} (fastest of ${estimate.samples} TCP connects to ${where}); ${use}`,
  );
}

/** Checks that fail. */
export function failures(checks: readonly DoctorCheck[]): DoctorCheck[] {
  return checks.filter((c) => c.status === 'fail');
}
