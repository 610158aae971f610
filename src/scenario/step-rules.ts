/**
 * Load-time rules of one scenario's `steps`, variables and repeat settings (run on the raw
 * data, guarded, beside the zod schema), each problem a `FileIssue` at file:line:col:
 * - exactly one of `humanMessage`, `steps` and `simulate` (which takes no `chatHistory`); with
 *   `steps`, `expect`/`latency` go on the steps;
 * - a `call` step has the fields its endpoint takes (spec: Endpoints 1-7, 10) and no others;
 * - expectation paths of a step fit its response (answer payload, or the endpoint's body;
 *   `reply.*` of a send that waits reads the MessageForwarding body, `intentWebhook.expect` the
 *   IntentWebhookRequest body);
 * - `waitForReply` / `noReplyWithin` only on `call: send`, not both, not with `status`, windows
 *   above 0; `intentWebhook` only where the droid answers (`say`, or `send` with `waitForReply`);
 *   `reply` paths only on a send that waits;
 * - every `{{ vars.name }}` names a variable of `vars:` or one captured by an earlier step
 *   (undefined variable => did-you-mean); a `{{` that is not `{{ vars.name }}` is refused;
 * - a `burst`'s messages: their expectations read the answer payload, their templates name
 *   defined variables, the gap is at most 10 min;
 * - `passRate` and `minPasses` are alternatives; `minPasses` is at most `repeat`.
 */
import type { FileIssue } from '../errors.js';
import { checkExpect, pathProblem } from './expect-rules.js';
import { durationMs } from '../units.js';
import {
  intentPathProblem,
  payloadPathProblem,
  responsePathProblem,
  sendWithReplyPathProblem,
} from './payload-paths.js';
import { CALL_NAMES, userScenarioSchema, VAR_NAME_PATTERN } from './schema.js';
import { didYouMean } from '../suggest.js';
import { templateNames } from './templates.js';
import { thinkRules } from './think.js';
import { MAX_THINK_MS, type CallName } from './types.js';
import type { DataPath, YamlSource } from './yaml-source.js';

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);

const CALL_FIELDS = ['customerId', 'prompt', 'humanMessage', 'botEnabled', 'imageUrl'] as const;
/** Fields each call requires (all other CALL_FIELDS are refused). */
const CALL_REQUIRES: Record<CallName, readonly (typeof CALL_FIELDS)[number][]> = {
  channels: [],
  messages: ['customerId'],
  customer: ['customerId'],
  conversations: ['customerId'],
  ask: ['customerId', 'prompt'],
  send: ['customerId', 'humanMessage'],
  setBot: ['customerId', 'botEnabled'],
  imageAlt: ['imageUrl'],
};
const TEMPLATED = ['say', 'customerId', 'prompt', 'humanMessage', 'imageUrl'] as const;
const SCENARIO_KEYS = Object.keys(userScenarioSchema.shape);

/** Checks every string under `value` (at `at`) for templates naming only `defined` variables. */
function checkTemplates(
  value: unknown,
  at: DataPath,
  defined: Set<string>,
  source: YamlSource,
  out: FileIssue[],
  depth = 0,
): void {
  if (typeof value === 'string') {
    const { names, malformed } = templateNames(value);
    const location = source.locate(at);
    if (malformed)
      out.push({
        location,
        message: `bad template in ${JSON.stringify(value)}: write {{ vars.name }} (letters, digits, _)`,
      });
    for (const name of names) {
      if (defined.has(name)) continue;
      const guess = didYouMean(name, [...defined]);
      const known = defined.size > 0 ? `defined here: ${[...defined].join(', ')}` : 'none is defined yet';
      out.push({
        location,
        message: guess
          ? `undefined variable "${name}" — did you mean "${guess}"?`
          : `undefined variable "${name}": define it in "vars:" or capture it in an earlier step (${known})`,
      });
    }
    return;
  }
  if (depth > 32 || value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value))
    checkTemplates(v, [...at, Array.isArray(value) ? Number(k) : k], defined, source, out, depth + 1);
}

function checkVarName(name: string, at: DataPath, source: YamlSource, out: FileIssue[]): void {
  if (!VAR_NAME_PATTERN.test(name)) {
    out.push({
      location: source.locate(at, 'key'),
      message: `bad variable name "${name}": letters, digits and _, not starting with a digit`,
    });
  }
}

function callRules(step: Raw, call: CallName, at: DataPath, source: YamlSource, out: FileIssue[]): void {
  const required = CALL_REQUIRES[call];
  for (const field of CALL_FIELDS) {
    const has = step[field] !== undefined;
    if (!has && required.includes(field))
      out.push({ location: source.locate(at), message: `call: ${call} needs "${field}"` });
    if (has && !required.includes(field)) {
      const users = CALL_NAMES.filter((c) => CALL_REQUIRES[c].includes(field)).join(', ');
      out.push({
        location: source.locate([...at, field], 'key'),
        message: `"${field}" is not used by call: ${call} (it is for: ${users})`,
      });
    }
  }
}

const WAITS = ['waitForReply', 'noReplyWithin'] as const;

/** The window of a `waitForReply`/`noReplyWithin` value (a duration or `{ within }`), ms. */
function windowMs(value: unknown): number | undefined {
  const text = isRecord(value) ? value.within : value;
  return typeof text === 'string' ? durationMs(text) : undefined;
}

const firstSegment = (path: unknown): string => (typeof path === 'string' ? (path.split('.')[0] ?? '') : '');

/** The reply and intent-webhook rules of one step (see module docs). */
function waitRules(step: Raw, call: CallName | undefined, at: DataPath, source: YamlSource, out: FileIssue[]): void {
  const keyAt = (key: string): FileIssue['location'] => source.locate([...at, key], 'key');
  for (const key of WAITS) {
    if (step[key] === undefined) continue;
    if (call !== undefined && call !== 'send') {
      out.push({
        location: keyAt(key),
        message: `"${key}" is only for call: send (the bot's reply to a sent message arrives through the message webhook)`,
      });
    }
    if (call === 'send' && step.status !== undefined) {
      out.push({
        location: keyAt(key),
        message: `"${key}" waits on the reply to an accepted message; with "status: ${String(step.status)}" the send is expected to fail: remove one of them`,
      });
    }
    if (windowMs(step[key]) === 0)
      out.push({ location: source.locate([...at, key]), message: `"${key}" must be more than 0 (e.g. 30s)` });
  }
  if (step.waitForReply !== undefined && step.noReplyWithin !== undefined) {
    out.push({
      location: keyAt('noReplyWithin'),
      message: 'write "waitForReply" or "noReplyWithin", not both: one waits for the reply, the other for its absence',
    });
  }
  if (step.intentWebhook !== undefined) {
    if (call !== undefined && !(call === 'send' && step.waitForReply !== undefined)) {
      out.push({
        location: keyAt('intentWebhook'),
        message:
          call === 'send'
            ? '"intentWebhook" on a send needs "waitForReply": the intent is detected in the bot\'s reply'
            : '"intentWebhook" needs an answer of the droid: put it on a say step, or on a send step with waitForReply',
      });
    }
    const hook = step.intentWebhook;
    if (isRecord(hook) && typeof hook.within === 'string' && durationMs(hook.within) === 0) {
      out.push({
        location: source.locate([...at, 'intentWebhook', 'within']),
        message: '"within" must be more than 0 (e.g. 30s)',
      });
    }
  }
  if (call === 'send' && step.waitForReply === undefined && step.noReplyWithin === undefined) {
    const paths: [DataPath, unknown][] = [
      ...Object.keys(isRecord(step.expect) ? step.expect : {}).map((p): [DataPath, unknown] => [
        [...at, 'expect', p],
        p,
      ]),
      ...Object.entries(isRecord(step.capture) ? step.capture : {}).map(([n, p]): [DataPath, unknown] => [
        [...at, 'capture', n],
        p,
      ]),
    ];
    for (const [where, path] of paths) {
      if (firstSegment(path) !== 'reply') continue;
      out.push({
        location: source.locate(where, where[where.length - 2] === 'expect' ? 'key' : 'value'),
        message:
          '"reply" is the bot\'s reply, which arrives later through the message webhook: add "waitForReply: 30s" (or "noReplyWithin: 5s") to this step',
      });
    }
  }
}

/** A burst's messages: their expectations read the answer payload, their templates name defined variables; the gap is at most MAX_THINK_MS. */
function burstRules(burst: Raw, at: DataPath, defined: Set<string>, source: YamlSource, out: FileIssue[]): void {
  checkTemplates(burst.say, [...at, 'say'], defined, source, out);
  if (Array.isArray(burst.say))
    for (const [k, m] of burst.say.entries())
      if (isRecord(m)) checkExpect(m.expect, [...at, 'say', k, 'expect'], source, out, payloadPathProblem);
  const gap = typeof burst.gap === 'string' ? durationMs(burst.gap) : undefined;
  if (gap !== undefined && gap > MAX_THINK_MS)
    out.push({
      location: source.locate([...at, 'gap']),
      message: `a burst's gap is at most ${MAX_THINK_MS / 60_000} min: messages further apart are turns of a conversation (say steps with think:)`,
    });
}

function stepRules(step: unknown, at: DataPath, defined: Set<string>, source: YamlSource, out: FileIssue[]): void {
  if (!isRecord(step)) return;
  const call =
    typeof step.call === 'string' && (CALL_NAMES as readonly string[]).includes(step.call)
      ? (step.call as CallName)
      : undefined;
  if (call) callRules(step, call, at, source, out);
  waitRules(step, call, at, source, out);
  const waits = call === 'send' && (step.waitForReply !== undefined || step.noReplyWithin !== undefined);
  if (isRecord(step.burst)) burstRules(step.burst, [...at, 'burst'], defined, source, out);
  const fieldProblem =
    'say' in step || 'burst' in step
      ? payloadPathProblem
      : call && step.status === undefined
        ? waits
          ? sendWithReplyPathProblem
          : (p: string) => responsePathProblem(call, p)
        : undefined;
  checkExpect(step.expect, [...at, 'expect'], source, out, fieldProblem);
  for (const field of TEMPLATED) checkTemplates(step[field], [...at, field], defined, source, out);
  checkTemplates(step.expect, [...at, 'expect'], defined, source, out);
  if (isRecord(step.capture)) {
    for (const [name, path] of Object.entries(step.capture)) {
      checkVarName(name, [...at, 'capture', name], source, out);
      const problem = typeof path === 'string' ? pathProblem(path) : undefined;
      if (problem) out.push({ location: source.locate([...at, 'capture', name]), message: problem });
      defined.add(name);
    }
  }
  // The intent webhook is judged after the step's captures: it may use them.
  if (isRecord(step.intentWebhook)) {
    checkExpect(step.intentWebhook.expect, [...at, 'intentWebhook', 'expect'], source, out, intentPathProblem);
    checkTemplates(step.intentWebhook.expect, [...at, 'intentWebhook', 'expect'], defined, source, out);
  }
}

function oneOfMessageOrSteps(sc: Raw, at: DataPath, source: YamlSource, out: FileIssue[]): void {
  const hasSteps = sc.steps !== undefined;
  const simulated = sc.simulate !== undefined;
  if (hasSteps && sc.humanMessage !== undefined) {
    out.push({
      location: source.locate([...at, 'steps'], 'key'),
      message: 'write "humanMessage" or "steps", not both (a humanMessage is one say step)',
    });
  }
  if (simulated) {
    for (const key of ['humanMessage', 'steps', 'chatHistory'] as const) {
      if (sc[key] === undefined) continue;
      const why =
        key === 'chatHistory'
          ? 'a simulated customer starts a new conversation: leave "chatHistory" out'
          : `write "simulate" or "${key}", not both (simulate.opening fixes the first line)`;
      out.push({ location: source.locate([...at, key], 'key'), message: why });
    }
  }
  if (!hasSteps && !simulated && sc.humanMessage === undefined) {
    // A misspelt key that zod reports with a did-you-mean covers this one.
    const misspelt = Object.keys(sc).some(
      (k) =>
        !SCENARIO_KEYS.includes(k) &&
        ['humanMessage', 'steps', 'simulate'].includes(didYouMean(k, SCENARIO_KEYS) ?? ''),
    );
    if (!misspelt) out.push({ location: source.locate(at), message: 'missing required key "humanMessage"' });
  }
  if (hasSteps) {
    for (const key of ['expect', 'latency'] as const) {
      if (sc[key] !== undefined)
        out.push({ location: source.locate([...at, key], 'key'), message: `with "steps", write "${key}" on a step` });
    }
  }
}

/** `passRate` xor `minPasses` (in a scenario, or in the suite); `minPasses` <= the run count. */
function repeatRules(map: Raw, at: DataPath, repeat: unknown, source: YamlSource, out: FileIssue[]): void {
  if (map.passRate !== undefined && map.minPasses !== undefined) {
    out.push({
      location: source.locate([...at, 'minPasses'], 'key'),
      message: 'write "passRate" or "minPasses", not both',
    });
  }
  const runs = typeof repeat === 'number' ? repeat : 1;
  if (typeof map.minPasses === 'number' && map.minPasses > runs) {
    out.push({
      location: source.locate([...at, 'minPasses']),
      message: `minPasses ${map.minPasses} is more than the ${runs} run(s) per mode: raise "repeat"`,
    });
  }
}

/** Every step/vars/repeat rule of scenario `i` of `suite` (the raw document). */
export function scenarioStepRules(sc: Raw, i: number, suite: Raw, source: YamlSource): FileIssue[] {
  const out: FileIssue[] = [];
  const at: DataPath = ['scenarios', i];
  oneOfMessageOrSteps(sc, at, source, out);
  repeatRules(sc, at, sc.repeat ?? suite.repeat, source, out);
  if (i === 0) repeatRules(suite, [], suite.repeat, source, out);
  thinkRules(sc, at, source, out);
  if (!Array.isArray(sc.steps)) return out;
  const defined = new Set(isRecord(sc.vars) ? Object.keys(sc.vars) : []);
  for (const name of defined) checkVarName(name, [...at, 'vars', name], source, out);
  for (const [j, step] of sc.steps.entries()) stepRules(step, [...at, 'steps', j], defined, source, out);
  return out;
}
