/**
 * Stage 5 of loading: a validated `UserSuite` -> the resolved `Suite` (types.ts).
 * Cannot fail: every rule was checked before. Shapes:
 * - chat turns `{human: t}` / `{ai: t}` / `{type, content}` -> `{type, content}` (an image turn
 *   keeps its `contentType: image` and `alt`, sent with the history);
 * - modes `"both"` -> `['sync','async']`, `"sync"` -> `['sync']`, a list is de-duplicated; omitted -> undefined;
 * - tags: a string -> `[string]`; omitted -> `[]`;
 * - expect: one `Expectation` per matcher (a scalar or list is `equals`); `json` nests `Expectation[]`;
 * - latency `"< 180s"` -> `{ max: 180000 }` ms (`<` and `<=` both give the maximum, compared with `<=`);
 * - steps (normalise-steps.ts): humanMessage becomes the first `say` text, or a first `burst`'s
 *   first message ("" when none);
 * - simulate: maxTurns defaults to 8; humanMessage becomes the opening ("" when none);
 * - repeat / passRate / minPasses: the scenario's, else the suite's (only set when written);
 *   `requirement` is `{ passRate }` or `{ minPasses }`.
 */
import type { ChatHistoryItem } from '../contract/index.js';
import { expectations, latencyLimit, rawMapAt } from './expectations.js';
import { normaliseSteps } from './normalise-steps.js';
import { normaliseThink } from './think.js';
import { DEFAULT_SIMULATE_MAX_TURNS } from './simulate.js';
import type { UserChatTurn, UserScenario, UserSuite } from './schema.js';
import { isAnswerStep, type AnswerMode, type PassRequirement, type Scenario, type Suite } from './types.js';
import type { DataPath, YamlSource } from './yaml-source.js';

function chatTurn(t: UserChatTurn): ChatHistoryItem {
  if ('human' in t) return { type: 'human', content: t.human };
  if ('ai' in t) return { type: 'ai', content: t.ai };
  const item: ChatHistoryItem = { type: t.type, content: t.content };
  if (t.contentType !== undefined) item.contentType = t.contentType;
  if (t.alt !== undefined) item.alt = t.alt;
  return item;
}

function modes(m: UserScenario['modes']): AnswerMode[] | undefined {
  if (m === undefined) return undefined;
  if (m === 'both') return ['sync', 'async'];
  if (typeof m === 'string') return [m];
  return [...new Set(m)];
}

function fileStem(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.ya?ml$/i, '');
}

function requirement(s: UserScenario, suite: UserSuite): PassRequirement | undefined {
  if (s.passRate !== undefined) return { passRate: s.passRate };
  if (s.minPasses !== undefined) return { minPasses: s.minPasses };
  if (suite.passRate !== undefined) return { passRate: suite.passRate };
  if (suite.minPasses !== undefined) return { minPasses: suite.minPasses };
  return undefined;
}

function addOptional(scenario: Scenario, s: UserScenario, user: UserSuite, at: DataPath, source: YamlSource): void {
  const latencyMs = latencyLimit(s.latency, at, source);
  if (latencyMs) scenario.latencyMs = latencyMs;
  if (s.steps) {
    scenario.steps = normaliseSteps(s.steps, [...at, 'steps'], source);
    const first = scenario.steps.find(isAnswerStep);
    scenario.humanMessage = first?.kind === 'say' ? first.text : (first?.messages[0]?.text ?? '');
    if (s.think !== undefined) scenario.think = normaliseThink(s.think, [...at, 'think'], source);
  }
  if (s.simulate) {
    const { persona, goal, maxTurns, opening } = s.simulate;
    scenario.simulate = {
      persona,
      goal,
      maxTurns: maxTurns ?? DEFAULT_SIMULATE_MAX_TURNS,
      ...(opening !== undefined ? { opening } : {}),
      location: source.locate([...at, 'simulate'], 'key'),
    };
    scenario.humanMessage = opening ?? '';
  }
  if (s.vars) scenario.vars = { ...s.vars };
  const repeat = s.repeat ?? user.repeat;
  if (repeat !== undefined) scenario.repeat = repeat;
  const req = requirement(s, user);
  if (req) scenario.requirement = req;
  if (s.intents) scenario.intents = [...s.intents];
}

export function normaliseSuite(user: UserSuite, source: YamlSource): Suite {
  const name = user.suite ?? fileStem(source.file);
  const scenarios = user.scenarios.map((s, i): Scenario => {
    const at: DataPath = ['scenarios', i];
    const scenario: Scenario = {
      suite: name,
      name: s.name,
      file: source.file,
      // A table's row is where it is written (its line in the suite, or in its rows file).
      location: source.rowOrigin?.(i)?.row.location ?? source.locate(at),
      tags: s.tags === undefined ? [] : typeof s.tags === 'string' ? [s.tags] : [...s.tags],
      modes: modes(s.modes),
      // A string (a table's "{{ vars.history }}") was rendered into a list by each.ts.
      chatHistory: (Array.isArray(s.chatHistory) ? s.chatHistory : []).map(chatTurn),
      humanMessage: s.humanMessage ?? '',
      // From the raw data, not zod's output: a strict object's output follows the schema's key
      // order, and expectations must keep the file's order (values are identical: no transforms).
      expect: expectations(rawMapAt(source, [...at, 'expect']) ?? s.expect ?? {}, [...at, 'expect'], source),
    };
    addOptional(scenario, s, user, at, source);
    return scenario;
  });
  const suite: Suite = { name, file: source.file, scenarios };
  if (user.passRate !== undefined) suite.passRate = user.passRate;
  return suite;
}
