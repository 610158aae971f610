/**
 * Errors a new user meets in the first hour point at the next step, through the real CLI:
 * a first `run` in an empty folder suggests `droidcheck init`; a misspelt suite file suggests
 * the one beside it; `validate` warns (exit 0) when `judge`/`similar` expectations have no model
 * configured, where `run` would stop with exit 2.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { droidcheck } from '../helpers/cli.js';

const GRADED = `suite: Graded
scenarios:
  - name: polite
    humanMessage: Hello there!
    expect:
      answer:
        judge: "Greets the customer politely"
        similar: { value: ["Hello, welcome!"], threshold: 0.8 }
  - name: polite again
    humanMessage: Hi
    expect: { answer: { judge: "Greets the customer" } }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-firsthour-'));
  await mkdir(join(dir, 'empty'));
  await mkdir(join(dir, 'graded', 'scenarios'), { recursive: true });
  await writeFile(join(dir, 'graded', 'scenarios', 'graded.yaml'), GRADED);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('errors that show the way', () => {
  it('run in an empty folder: the missing scenarios/ folder suggests droidcheck init, exit 2', async () => {
    const res = await droidcheck(['run'], { cwd: join(dir, 'empty') });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'scenarios:1:1: no such file or directory; to start, `droidcheck init` writes a starter suite (scenarios/starter.yaml)',
    );
  });

  it('validate of a misspelt suite file names the one beside it', async () => {
    const res = await droidcheck(['validate', join(dir, 'graded', 'scenarios', 'graded.yml')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `no such file or directory; did you mean ${join(dir, 'graded', 'scenarios', 'graded.yaml')}?`,
    );
  });

  it('validate warns about judge/similar with no model configured (exit 0), and says nothing once they are', async () => {
    const cwd = join(dir, 'graded');
    const bare = await droidcheck(['validate'], { cwd });
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stderr).toContain(
      'droidcheck: warning: scenarios/graded.yaml:7:9: 2 "judge" expectation(s) need a chat model and none is configured: pass --judge-model',
    );
    expect(bare.stderr).toContain(
      'droidcheck: warning: scenarios/graded.yaml:8:9: 1 "similar" expectation(s) need an embedding model and none is configured: pass --embedding-model',
    );

    // A model given without an endpoint is a mistake in what was configured: exit 2, as for run.
    const noEndpoint = await droidcheck(['validate', '--judge-model', 'llama3.1:8b'], { cwd });
    expect(noEndpoint.code).toBe(2);
    expect(noEndpoint.stderr).toContain(
      'a judge model (--judge-model) is configured but no endpoint: set OPENAI_BASE_URL',
    );

    const configured = await droidcheck(
      ['validate', '--judge-model', 'llama3.1:8b', '--embedding-model', 'nomic-embed-text'],
      { cwd, env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' } },
    );
    expect(configured.code).toBe(0);
    expect(configured.stderr).toBe('');

    // What the warning announces: run stops before sending anything.
    const run = await droidcheck(['run', '--reporter', 'console'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"judge" needs a chat model');
  }, 90_000);
});
