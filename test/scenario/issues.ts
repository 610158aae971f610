/** Helpers of the scenario tests: the load-time issues of a suite text, one line each. */
import { expect } from 'vitest';
import { ScenarioError } from '../../src/errors.js';
import { parseSuite } from '../../src/scenario/index.js';

/** A location in the suite file `s.yaml`. */
export const at = (line: number, col: number) => ({ file: 's.yaml', line, col });

/** The lines of the ScenarioError that parsing `text` as `s.yaml` throws; fails when it parses. */
export function issues(text: string): string[] {
  try {
    parseSuite(text, 's.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError);
    return (err as ScenarioError).message.split('\n');
  }
  throw new Error('expected a ScenarioError');
}
