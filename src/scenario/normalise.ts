/**
 * Stage 5 of loading: a validated `UserSuite` -> the resolved `Suite` (docs/interfaces.md).
 * Cannot fail: every rule was checked before. Shapes:
 * - chat turns `{human: t}` / `{ai: t}` / `{type, content}` -> `{type, content}`;
 * - modes `"both"` -> `['sync','async']`, `"sync"` -> `['sync']`, a list is de-duplicated; omitted -> undefined;
 * - tags: a string -> `[string]`; omitted -> `[]`;
 * - expect: one `Expectation` per matcher (a scalar or list is `equals`); `json` nests `Expectation[]`;
 * - latency `"< 180s"` -> `{ max: 180000 }` ms (`<` and `<=` both give the maximum, compared with `<=`).
 */
import type { ChatHistoryItem } from '../contract/index.js';
import { MATCHERS } from './matchers/registry.js';
import { LATENCY_PATTERN, type UserChatTurn, type UserScenario, type UserSuite } from './schema.js';
import type { AnswerMode, Expectation, Scenario, Suite } from './types.js';
import type { DataPath, YamlSource } from './yaml-source.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** `"< 2.5s"` -> 2500 (ms); undefined when the text is not a latency. */
export function parseLatency(text: string): number | undefined {
  const m = LATENCY_PATTERN.exec(text);
  if (!m || m[2] === undefined || m[3] === undefined) return undefined;
  return Number(m[2]) * (UNIT_MS[m[3]] ?? 1);
}

function chatTurn(t: UserChatTurn): ChatHistoryItem {
  if ('human' in t) return { type: 'human', content: t.human };
  if ('ai' in t) return { type: 'ai', content: t.ai };
  return { type: t.type, content: t.content };
}

function modes(m: UserScenario['modes']): AnswerMode[] | undefined {
  if (m === undefined) return undefined;
  if (m === 'both') return ['sync', 'async'];
  if (typeof m === 'string') return [m];
  return [...new Set(m)];
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Expectations of one `expect` map (or a `json` map inside one), in file order. */
export function expectations(expect: Record<string, unknown>, base: DataPath, source: YamlSource): Expectation[] {
  const out: Expectation[] = [];
  for (const [path, value] of Object.entries(expect)) {
    if (!isRecord(value)) {
      out.push({ path, matcher: 'equals', expected: value, location: source.locate([...base, path], 'key') });
      continue;
    }
    const ignoreCase = value.ignoreCase === true;
    for (const [name, raw] of Object.entries(value)) {
      if (name === 'ignoreCase') continue;
      const location = source.locate([...base, path, name], 'key');
      if (name === 'json') {
        out.push({ path, matcher: 'json', expected: expectations(raw as Record<string, unknown>, [...base, path, 'json'], source), location });
        continue;
      }
      const def = MATCHERS.get(name);
      const n = def?.normalise ? def.normalise(raw) : { expected: raw };
      const options = ignoreCase ? { ...n.options, ignoreCase: true } : n.options;
      out.push(options ? { path, matcher: name, expected: n.expected, location, options } : { path, matcher: name, expected: n.expected, location });
    }
  }
  return out;
}

function fileStem(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.ya?ml$/i, '');
}

function rawExpect(source: YamlSource, i: number): Record<string, unknown> | undefined {
  const data = source.data as { scenarios?: { expect?: unknown }[] } | undefined;
  const e = data?.scenarios?.[i]?.expect;
  return isRecord(e) ? e : undefined;
}

export function normaliseSuite(user: UserSuite, source: YamlSource): Suite {
  const name = user.suite ?? fileStem(source.file);
  const scenarios = user.scenarios.map((s, i): Scenario => {
    const at: DataPath = ['scenarios', i];
    const scenario: Scenario = {
      suite: name,
      name: s.name,
      file: source.file,
      location: source.locate(at),
      tags: s.tags === undefined ? [] : typeof s.tags === 'string' ? [s.tags] : [...s.tags],
      modes: modes(s.modes),
      chatHistory: (s.chatHistory ?? []).map(chatTurn),
      humanMessage: s.humanMessage,
      // From the raw data, not zod's output: a strict object's output follows the schema's key
      // order, and expectations must keep the file's order (values are identical: no transforms).
      expect: expectations(rawExpect(source, i) ?? s.expect ?? {}, [...at, 'expect'], source),
    };
    const max = s.latency === undefined ? undefined : parseLatency(s.latency);
    if (max !== undefined) scenario.latencyMs = { max, location: source.locate([...at, 'latency'], 'key') };
    return scenario;
  });
  return { name, file: source.file, scenarios };
}
