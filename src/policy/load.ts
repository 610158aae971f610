/**
 * Reading a policy file: YAML with every problem at file:line:col and a did-you-mean for a
 * misspelt key, as scenario files are read (scenario/yaml-source.ts, zod-issues.ts); all
 * problems at once in one PolicyError (DROIDCHECK_ERR_POLICY, exit 2).
 */
import { readFileSync } from 'node:fs';
import { PolicyError, type FileIssue } from '../errors.js';
import { readYaml, type YamlSource } from '../scenario/yaml-source.js';
import { issuesFromZod } from '../scenario/zod-issues.js';
import { policyFileSchema, type PolicyData } from './schema.js';
import type { Policy } from './types.js';

/** The policy file a job reads when none is named, from the working directory, when it is there (config/job-config.ts). */
export const DEFAULT_POLICY_FILE = 'droidcheck.policy.yaml';

function locations(source: YamlSource, data: PolicyData): Policy['locations'] {
  const out: Partial<Record<keyof PolicyData, FileIssue['location']>> = {};
  for (const key of Object.keys(data) as (keyof PolicyData)[]) out[key] = source.locate([key], 'key');
  return out;
}

/** `catalogue[1].price`, as a reader finds it in the file. */
const label = (path: readonly PropertyKey[]): string =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('');

/** Parses the text of a policy file named `file`. Throws PolicyError with every problem. */
export function parsePolicy(text: string, file: string): Policy {
  const { source, issues } = readYaml(text, file);
  if (!source) throw new PolicyError(issues);
  if (source.data === undefined || source.data === null)
    throw new PolicyError([
      { location: { file, line: 1, col: 1 }, message: 'the policy file is empty: it needs at least `currency:`' },
    ]);
  const parsed = policyFileSchema.safeParse(source.data);
  if (!parsed.success) {
    // The schema's own sentences ("must be an amount ...") say what, the key path says which value.
    const issues = parsed.error.issues.map((i) =>
      i.code === 'custom' || i.code === 'invalid_format' ? { ...i, message: `${label(i.path)}: ${i.message}` } : i,
    );
    throw new PolicyError(issuesFromZod(issues, source, policyFileSchema));
  }
  return { ...parsed.data, file, locations: locations(source, parsed.data) };
}

/** Reads and parses the policy file `file`. Throws PolicyError (exit 2) when it cannot be read or is malformed. */
export function loadPolicy(file: string): Policy {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (err as Error).message;
    throw new PolicyError([
      {
        location: { file, line: 1, col: 1 },
        message: `cannot read the policy file (--policy, \`policy:\` of the config file, or ./${DEFAULT_POLICY_FILE}): ${why}`,
      },
    ]);
  }
  return parsePolicy(text, file);
}
