/**
 * Stage 5 for `steps:`: validated user steps -> resolved `Step[]` (types.ts). Cannot fail:
 * step-rules.ts checked every rule before. Expectations keep the file's order (read from the
 * raw data, like the scenario's `expect`); `capture` becomes `Capture[]` in file order.
 */
import { expectations, latencyLimit, rawMapAt } from './expectations.js';
import type { UserStep } from './schema.js';
import type { CallName, Capture, Step } from './types.js';
import type { DataPath, YamlSource } from './yaml-source.js';

function captures(capture: Record<string, string> | undefined, at: DataPath, source: YamlSource): Capture[] {
  const raw = (rawMapAt(source, [...at, 'capture']) ?? capture ?? {}) as Record<string, string>;
  return Object.entries(raw).map(([name, path]) => ({ name, path, location: source.locate([...at, 'capture', name], 'key') }));
}

/** @param at data path of the `steps` list, e.g. `['scenarios', 2, 'steps']`. */
export function normaliseSteps(steps: readonly UserStep[], at: DataPath, source: YamlSource): Step[] {
  return steps.map((s, index): Step => {
    const here = [...at, index];
    const expect = expectations(rawMapAt(source, [...here, 'expect']) ?? s.expect ?? {}, [...here, 'expect'], source);
    const base = { index, location: source.locate(here), expect, capture: captures(s.capture, here, source) };
    const latencyMs = latencyLimit(s.latency, here, source);
    const withLatency = latencyMs ? { ...base, latencyMs } : base;
    if ('say' in s) return { kind: 'say', ...withLatency, text: s.say };
    const step: Step = { kind: 'call', ...withLatency, call: s.call as CallName };
    if (s.customerId !== undefined) step.customerId = s.customerId;
    if (s.prompt !== undefined) step.prompt = s.prompt;
    if (s.humanMessage !== undefined) step.humanMessage = s.humanMessage;
    if (s.botEnabled !== undefined) step.botEnabled = s.botEnabled;
    if (s.imageUrl !== undefined) step.imageUrl = s.imageUrl;
    if (s.status !== undefined) step.status = s.status;
    return step;
  });
}
