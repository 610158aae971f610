/**
 * `--burst-gap`: a conversation's turns sent as bursts (docs/bursts.md, "Under load"): customers
 * who do not wait for the answer before they write again. In every steps scenario, each run of
 * two or more consecutive `say` steps becomes one `burst` step of their messages, `gapMs` apart,
 * each message keeping its own `expect` and `latency`. What a burst cannot carry ends a run and
 * stays a `say`: a `capture` (a later step reads that answer's value) or an `intentWebhook` (its
 * window counts from that answer). The burst's pause before it is its first `say`'s (the pauses
 * between the turns it merges are the gap now); its final state has no expectation of its own.
 */
import type { BurstStep, SayStep, Step, Suite } from './types.js';

/** A `say` a burst can carry (see the module docs). */
const mergeable = (step: Step): step is SayStep =>
  step.kind === 'say' && step.capture.length === 0 && step.intentWebhook === undefined;

function burstOf(says: readonly SayStep[], gapMs: number, index: number): BurstStep {
  const first = says[0]!;
  return {
    kind: 'burst',
    index,
    location: first.location,
    expect: [],
    capture: [],
    ...(first.think && { think: first.think }),
    messages: says.map((s) => ({
      text: s.text,
      expect: s.expect,
      ...(s.latencyMs && { latencyMs: s.latencyMs }),
      location: s.location,
    })),
    gapMs,
    final: 'last-delivered',
  };
}

/** `steps` with each run of consecutive mergeable `say` steps as one burst, renumbered. */
function burstSteps(steps: readonly Step[], gapMs: number): Step[] {
  const out: Step[] = [];
  let run: SayStep[] = [];
  const flush = (): void => {
    if (run.length >= 2) out.push(burstOf(run, gapMs, out.length));
    else for (const s of run) out.push({ ...s, index: out.length });
    run = [];
  };
  for (const step of steps) {
    if (mergeable(step)) {
      run.push(step);
      continue;
    }
    flush();
    out.push({ ...step, index: out.length });
  }
  flush();
  return out;
}

/** `suites` with every conversation's consecutive turns sent as bursts `gapMs` apart (see the module docs). */
export function withBursts(suites: readonly Suite[], gapMs: number): Suite[] {
  return suites.map((suite) => ({
    ...suite,
    scenarios: suite.scenarios.map((sc) => (sc.steps ? { ...sc, steps: burstSteps(sc.steps, gapMs) } : sc)),
  }));
}
