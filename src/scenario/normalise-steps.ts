/**
 * Stage 5 for `steps:`: validated user steps -> resolved `Step[]` (types.ts). Cannot fail:
 * step-rules.ts checked every rule before. Expectations keep the file's order (read from the
 * raw data, like the scenario's `expect`); `capture` becomes `Capture[]` in file order;
 * durations (`waitForReply`, `noReplyWithin`, `intentWebhook.within`, a burst's `gap`) become ms; a
 * burst's messages become `{text, expect, latencyMs?}` (a plain string has no expectation) and its
 * `final` defaults to `last-delivered`.
 */
import { durationMs } from '../units.js';
import { expectations, latencyLimit, rawMapAt } from './expectations.js';
import type { UserStep } from './schema.js';
import type {
  BurstMessage,
  BurstStep,
  CallName,
  Capture,
  IntentWebhookExpectation,
  ReplySender,
  ReplyWait,
  Step,
  StepBase,
} from './types.js';
import type { DataPath, YamlSource } from './yaml-source.js';
import { normaliseThink } from './think.js';

type UserBurst = Extract<UserStep, { burst: unknown }>['burst'];

/** A burst's messages (each with its own expectations and latency limit), gap (ms) and final state. */
function burstOf(burst: UserBurst, at: DataPath, source: YamlSource): Omit<BurstStep, keyof StepBase | 'kind'> {
  const messages = burst.say.map((m, k): BurstMessage => {
    const here = [...at, 'say', k];
    const location = source.locate(here);
    if (typeof m === 'string') return { text: m, expect: [], location };
    const expect = expectations(rawMapAt(source, [...here, 'expect']) ?? m.expect ?? {}, [...here, 'expect'], source);
    const latencyMs = latencyLimit(m.latency, here, source);
    return { text: m.say, expect, ...(latencyMs && { latencyMs }), location };
  });
  return { messages, gapMs: durationMs(burst.gap) ?? 0, final: burst.final ?? 'last-delivered' };
}

type UserReplyWait = string | { within: string; from?: ReplySender[] | undefined };
type UserIntentWebhook = { within: string; expect?: Record<string, unknown> | undefined };

function captures(capture: Record<string, string> | undefined, at: DataPath, source: YamlSource): Capture[] {
  const raw = (rawMapAt(source, [...at, 'capture']) ?? capture ?? {}) as Record<string, string>;
  return Object.entries(raw).map(([name, path]) => ({
    name,
    path,
    location: source.locate([...at, 'capture', name], 'key'),
  }));
}

function replyWait(wait: UserReplyWait, at: DataPath, source: YamlSource): ReplyWait {
  const within = typeof wait === 'string' ? wait : wait.within;
  const from = typeof wait === 'string' || wait.from === undefined ? ['ai' as const] : [...new Set(wait.from)];
  return { withinMs: durationMs(within) ?? 0, from, location: source.locate(at, 'key') };
}

function intentWebhook(hook: UserIntentWebhook, at: DataPath, source: YamlSource): IntentWebhookExpectation {
  const expect = expectations(rawMapAt(source, [...at, 'expect']) ?? hook.expect ?? {}, [...at, 'expect'], source);
  return { withinMs: durationMs(hook.within) ?? 0, expect, location: source.locate(at, 'key') };
}

/** @param at data path of the `steps` list, e.g. `['scenarios', 2, 'steps']`. */
export function normaliseSteps(steps: readonly UserStep[], at: DataPath, source: YamlSource): Step[] {
  return steps.map((s, index): Step => {
    const here = [...at, index];
    const expect = expectations(rawMapAt(source, [...here, 'expect']) ?? s.expect ?? {}, [...here, 'expect'], source);
    const base = { index, location: source.locate(here), expect, capture: captures(s.capture, here, source) };
    const latencyMs = latencyLimit(s.latency, here, source);
    const withLatency = latencyMs ? { ...base, latencyMs } : base;
    const hook = 'intentWebhook' in s ? s.intentWebhook : undefined;
    const withIntent = hook
      ? { ...withLatency, intentWebhook: intentWebhook(hook, [...here, 'intentWebhook'], source) }
      : withLatency;
    const withHook =
      s.think !== undefined
        ? { ...withIntent, think: normaliseThink(s.think, [...here, 'think'], source) }
        : withIntent;
    if ('say' in s) return { kind: 'say', ...withHook, text: s.say };
    if ('burst' in s) return { kind: 'burst', ...withHook, ...burstOf(s.burst, [...here, 'burst'], source) };
    const step: Step = { kind: 'call', ...withHook, call: s.call as CallName };
    if (s.customerId !== undefined) step.customerId = s.customerId;
    if (s.prompt !== undefined) step.prompt = s.prompt;
    if (s.humanMessage !== undefined) step.humanMessage = s.humanMessage;
    if (s.botEnabled !== undefined) step.botEnabled = s.botEnabled;
    if (s.imageUrl !== undefined) step.imageUrl = s.imageUrl;
    if (s.status !== undefined) step.status = s.status;
    if (s.waitForReply !== undefined) step.waitForReply = replyWait(s.waitForReply, [...here, 'waitForReply'], source);
    if (s.noReplyWithin !== undefined)
      step.noReplyWithin = replyWait(s.noReplyWithin, [...here, 'noReplyWithin'], source);
    return step;
  });
}
