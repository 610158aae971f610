/**
 * Errors a new user meets in the first hour point at the next step, through the CLI (runProgram,
 * in process): a first `run` in an empty folder suggests `droidcheck init`; a misspelt suite file
 * suggests the one beside it; `validate` refuses (exit 2, in run's words) `judge`/`similar` expectations
 * with no model configured, as `run` does before sending (validate-as-run.test.ts: the rest).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';

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
    const res = await cli(['run'], { cwd: join(dir, 'empty') });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'scenarios:1:1: no such file or directory; to start, `droidcheck init` writes a starter suite (scenarios/starter.yaml)',
    );
  });

  it('validate of a misspelt suite file names the one beside it', async () => {
    const res = await cli(['validate', join(dir, 'graded', 'scenarios', 'graded.yml')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `no such file or directory; did you mean ${join(dir, 'graded', 'scenarios', 'graded.yaml')}?`,
    );
  });

  it('validate refuses judge/similar with no model in the words run does (exit 2); a model only the endpoint can name is a warning', async () => {
    const cwd = join(dir, 'graded');
    const errorLine = (stderr: string): string | undefined =>
      stderr.split('\n').find((l) => l.includes('DROIDCHECK_ERR_'));
    const bare = await cli(['validate'], { cwd });
    expect(bare.code, bare.stderr).toBe(2);
    expect(errorLine(bare.stderr)).toBe(
      'droidcheck: DROIDCHECK_ERR_CONFIG: scenarios/graded.yaml:7:9: "judge" needs a chat model: pass --judge-model (or judge.model in droidcheck.config.yaml) and point OPENAI_BASE_URL at an OpenAI-compatible endpoint (or set OPENAI_API_KEY for OpenAI); see docs/llm.md',
    );
    const run = await cli(['run', '--reporter', 'console'], { cwd });
    expect(run.code).toBe(2);
    expect(errorLine(run.stderr)).toBe(errorLine(bare.stderr));

    // A model given without an endpoint is a mistake in what was configured: exit 2, as for run.
    const noEndpoint = await cli(['validate', '--judge-model', 'llama3.1:8b'], { cwd });
    expect(noEndpoint.code).toBe(2);
    expect(noEndpoint.stderr).toContain(
      'a judge model (--judge-model) is configured but no endpoint: set OPENAI_BASE_URL',
    );

    // OpenAI's own API: its catalogue leaves the choice to the user, so run refuses, and so does validate.
    const openai = await cli(['validate'], { cwd, env: { OPENAI_API_KEY: 'sk-test-0123456789abcdef' } });
    expect(openai.code).toBe(2);
    expect(openai.stderr).toContain('"judge" needs a chat model');

    // Another endpoint: run asks it which model it serves; validate sends nothing and says so.
    const local = await cli(['validate'], { cwd, env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).toContain(
      'droidcheck: warning: scenarios/graded.yaml:7:9: 2 "judge" expectation(s) name no chat model: run asks http://127.0.0.1:9/v1/models for the one it serves',
    );
    expect(local.stderr).toContain('scenarios/graded.yaml:8:9: 1 "similar" expectation(s) name no embedding model');

    const configured = await cli(
      ['validate', '--judge-model', 'llama3.1:8b', '--embedding-model', 'nomic-embed-text'],
      { cwd, env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' } },
    );
    expect(configured.code).toBe(0);
    expect(configured.stderr).toBe('');
  });
});
