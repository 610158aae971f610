/** Test helpers for load/: scenarios built in code, small targets on 127.0.0.1. */
import type { AnswerMode, Scenario, Suite } from '../../src/scenario/index.js';

export function scenario(name: string, opts: { suite?: string; modes?: AnswerMode[]; humanMessage?: string } = {}): Scenario {
  const suite = opts.suite ?? 'load';
  return {
    suite,
    name,
    file: `${suite}.yaml`,
    location: { file: `${suite}.yaml`, line: 1, col: 1 },
    tags: [],
    modes: opts.modes,
    chatHistory: [],
    humanMessage: opts.humanMessage ?? 'Hello there!',
    expect: [],
  };
}

export function suiteOf(...scenarios: Scenario[]): Suite {
  const first = scenarios[0];
  return { name: first?.suite ?? 'load', file: first?.file ?? 'load.yaml', scenarios };
}
