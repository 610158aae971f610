/**
 * `think:` (docs/conversations.md): the rules the zod schema cannot say, on the raw data, each
 * problem a `FileIssue` at file:line:col (`thinkRules`); and the resolved `ThinkTime` in ms
 * (`normaliseThink`, after the rules passed). Rules: every pause at most MAX_THINK_MS (10 min);
 * `min <= max`; `median < p90` (a lognormal's spread comes from their ratio); `think:` on the
 * scenario only with `steps:` (a single message has no turn to pause before).
 */
import type { FileIssue } from '../errors.js';
import { durationMs } from '../units.js';
import { isAnswerStep, MAX_THINK_MS, type Step, type Suite, type ThinkTime } from './types.js';
import type { DataPath, YamlSource } from './yaml-source.js';

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
/** ms of a duration string; undefined for anything else (the schema reports those). */
const msOf = (v: unknown): number | undefined => (typeof v === 'string' ? durationMs(v) : undefined);

function checkOne(think: unknown, at: DataPath, source: YamlSource, out: FileIssue[]): void {
  const tooLong = (v: unknown, path: DataPath): void => {
    const ms = msOf(v);
    if (ms !== undefined && ms > MAX_THINK_MS)
      out.push({
        location: source.locate(path),
        message: `think ${String(v).trim()} is longer than ${MAX_THINK_MS / 60_000} min: a pause that long is a conversation resumed later, write a new scenario`,
      });
  };
  if (typeof think === 'string') return tooLong(think, at);
  if (!isRecord(think)) return;
  if ('min' in think || 'max' in think) {
    tooLong(think.min, [...at, 'min']);
    tooLong(think.max, [...at, 'max']);
    const min = msOf(think.min);
    const max = msOf(think.max);
    if (min !== undefined && max !== undefined && min > max)
      out.push({
        location: source.locate([...at, 'min']),
        message: `think min ${String(think.min).trim()} is more than max ${String(think.max).trim()}`,
      });
    return;
  }
  const ln = think.lognormal;
  if (!isRecord(ln)) return;
  tooLong(ln.median, [...at, 'lognormal', 'median']);
  tooLong(ln.p90, [...at, 'lognormal', 'p90']);
  const median = msOf(ln.median);
  const p90 = msOf(ln.p90);
  if (median !== undefined && median <= 0)
    out.push({
      location: source.locate([...at, 'lognormal', 'median']),
      message: 'think lognormal median must be above 0',
    });
  if (median !== undefined && p90 !== undefined && p90 <= median)
    out.push({
      location: source.locate([...at, 'lognormal', 'p90']),
      message: `think lognormal p90 ${String(ln.p90).trim()} must be above the median ${String(ln.median).trim()}`,
    });
}

/** Every `think:` rule of scenario map `sc` at `at` (its own and its steps'). */
export function thinkRules(sc: Raw, at: DataPath, source: YamlSource, out: FileIssue[]): void {
  if (sc.think !== undefined) {
    if (!Array.isArray(sc.steps))
      out.push({
        location: source.locate([...at, 'think'], 'key'),
        message: 'think is the pause between the turns of a conversation: it needs steps (say: ...), not humanMessage',
      });
    checkOne(sc.think, [...at, 'think'], source, out);
  }
  if (!Array.isArray(sc.steps)) return;
  sc.steps.forEach((step: unknown, j: number) => {
    if (isRecord(step) && step.think !== undefined) checkOne(step.think, [...at, 'steps', j, 'think'], source, out);
  });
}

type UserThink = string | { min: string; max: string } | { lognormal: { median: string; p90: string } };

/** The resolved pause of a validated `think:` at `at` (durations in ms). */
export function normaliseThink(think: UserThink, at: DataPath, source: YamlSource): ThinkTime {
  const location = source.locate(at, 'key');
  if (typeof think === 'string') return { kind: 'fixed', ms: durationMs(think) ?? 0, location };
  if ('lognormal' in think)
    return {
      kind: 'lognormal',
      medianMs: durationMs(think.lognormal.median) ?? 0,
      p90Ms: durationMs(think.lognormal.p90) ?? 0,
      location,
    };
  return { kind: 'uniform', minMs: durationMs(think.min) ?? 0, maxMs: durationMs(think.max) ?? 0, location };
}

/** `suites` without any pause (`--no-think`): the same scenarios, their steps' `think` dropped. */
export function withoutThink(suites: readonly Suite[]): Suite[] {
  return suites.map((suite) => ({
    ...suite,
    scenarios: suite.scenarios.map((sc) => {
      if (!sc.steps) return sc;
      const { think: _drop, ...rest } = sc;
      return { ...rest, steps: sc.steps.map(({ think: _t, ...step }) => step as Step) };
    }),
  }));
}

/** The z-scores of a normal distribution's 90th and 99.9th percentiles. */
const Z90 = 1.2815515655446004;
const Z999 = 3.090232306167813;

/** The longest pause `think` is expected to take, ms: fixed; the max of a range; a lognormal's p99.9 (capped at MAX_THINK_MS). */
function longestThinkMs(think: ThinkTime): number {
  if (think.kind === 'fixed') return think.ms;
  if (think.kind === 'uniform') return think.maxMs;
  return Math.min(MAX_THINK_MS, think.medianMs * (think.p90Ms / think.medianMs) ** (Z999 / Z90));
}

/**
 * The most time any scenario of `suites` spends in its pauses, ms (each step's own `think`, else
 * the scenario's before every answer step after the first, at its longest, and the gaps inside its
 * bursts): a load's drain after the
 * last arrival adds it, so a conversation that arrived near the end is not cut in a pause.
 */
export function pauseBudgetMs(suites: readonly Suite[]): number {
  let most = 0;
  for (const sc of suites.flatMap((s) => s.scenarios)) {
    let total = 0;
    let says = 0;
    for (const step of sc.steps ?? []) {
      const think = step.think ?? (isAnswerStep(step) && says > 0 ? sc.think : undefined);
      if (isAnswerStep(step)) says += 1;
      if (think) total += longestThinkMs(think);
      // A burst's later messages leave gap after gap after its first (docs/bursts.md).
      if (step.kind === 'burst') total += step.gapMs * (step.messages.length - 1);
    }
    most = Math.max(most, total);
  }
  return most;
}
