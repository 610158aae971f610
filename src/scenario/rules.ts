/**
 * Stage 4 of loading: rules zod cannot state, run on the raw data (guarded, so they also run
 * when the schema found problems, and every issue of a file is reported at once):
 * - scenario names are unique in a suite (a table's rows among themselves: each.ts);
 * - a matcher object names at least one matcher;
 * - expectation paths are dotted (`responses.0.kwargs.content`), without `[]` or empty segments,
 *   and do not misspell a field of the answer payload (payload-paths.ts; a simulated scenario
 *   may also read `transcript` and `turns`);
 * - `chatHistory: "{{ vars.x }}"` only in a table (each:), whose column holds the list;
 * - steps, variables, repeat and pass requirements (step-rules.ts).
 */
import type { FileIssue } from '../errors.js';
import { checkExpect } from './expect-rules.js';
import { payloadPathProblem } from './payload-paths.js';
import { simulatedPathProblem } from './simulate.js';
import { scenarioStepRules } from './step-rules.js';
import type { YamlSource } from './yaml-source.js';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function applyRules(source: YamlSource): FileIssue[] {
  const out: FileIssue[] = [];
  const data = source.data;
  if (!isRecord(data) || !Array.isArray(data.scenarios)) return out;
  const seen = new Map<string, number>();
  data.scenarios.forEach((sc: unknown, i: number) => {
    if (!isRecord(sc)) return;
    if (typeof sc.name === 'string') {
      const first = seen.get(sc.name);
      const rows = [source.rowOrigin?.(first ?? -1), source.rowOrigin?.(i)];
      if (first === undefined) seen.set(sc.name, i);
      // Two rows of one table with one name: each.ts reports it at the row.
      else if (rows[0] === undefined || rows[0].scenario !== rows[1]?.scenario) {
        const firstLoc = source.locate(['scenarios', first, 'name']);
        out.push({
          location: source.locate(['scenarios', i, 'name']),
          message: `duplicate scenario name "${sc.name}" (first used at line ${firstLoc.line}); names must be unique in a suite`,
        });
      }
    }
    if (typeof sc.chatHistory === 'string' && source.rowOrigin?.(i) === undefined)
      out.push({
        location: source.locate(['scenarios', i, 'chatHistory']),
        message: `chatHistory "${sc.chatHistory}" names a column: that is for a table (each:) whose rows hold the history; here write the turns as a list`,
      });
    checkExpect(
      sc.expect,
      ['scenarios', i, 'expect'],
      source,
      out,
      sc.simulate !== undefined ? simulatedPathProblem : payloadPathProblem,
    );
    out.push(...scenarioStepRules(sc, i, data, source));
  });
  return out;
}
