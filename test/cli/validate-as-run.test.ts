/**
 * `droidcheck validate` refuses what `run` would refuse before sending, in run's words, through
 * the CLI (runProgram, in process): a config file's mistakes (all at once, each at its line,
 * DROIDCHECK_ERR_CONFIG_FILE), a `simulate:` scenario with no model, a remote run whose webhooks
 * could not reach the receiver.
 * Nothing is sent: the remote target's address is a closed port on 127.0.0.1.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';

const SIMULATED = `suite: Simulated
scenarios:
  - name: a busy parent orders shirts
    simulate:
      persona: a busy parent who writes short messages
      goal: buy two Oxford shirts
    expect: { turns: { lte: 4 } }
`;

const ASYNC = `suite: Async
scenarios:
  - name: hello
    modes: [async]
    humanMessage: Hello
`;

/** The line of `stderr` that carries droidcheck's error code. */
const errorLine = (stderr: string): string | undefined => stderr.split('\n').find((l) => l.includes('DROIDCHECK_ERR_'));

let dir: string;
async function project(name: string, files: Record<string, string>): Promise<string> {
  const root = join(dir, name);
  await mkdir(join(root, 'scenarios'), { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(root, path), text);
  return root;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-validate-run-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('validate refuses what run refuses before sending', () => {
  it('a config file with two mistakes: both at their lines, a did-you-mean, exit 2, DROIDCHECK_ERR_CONFIG_FILE', async () => {
    const cwd = await project('misconfigured', {
      'scenarios/async.yaml': ASYNC,
      'droidcheck.config.yaml': 'reportDir: reports\nconcurency: 4\ntimeout: soon\n',
    });
    for (const command of ['validate', 'run']) {
      const res = await cli([command], { cwd });
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(
        'droidcheck: DROIDCHECK_ERR_CONFIG_FILE: droidcheck.config.yaml:2:1: unknown key "concurency" — did you mean "concurrency" under `run:` or `load:`?\n' +
          'droidcheck.config.yaml:3:10: timeout: "soon" is not a duration; write e.g. 500ms, 30s, 2m\n',
      );
    }
  });

  it('a simulate: scenario with no model: exit 2 with the message of run', async () => {
    const cwd = await project('simulated', { 'scenarios/simulated.yaml': SIMULATED });
    const validate = await cli(['validate'], { cwd });
    const run = await cli(['run', '--reporter', 'console'], { cwd });
    expect(validate.code, validate.stderr).toBe(2);
    expect(run.code, run.stderr).toBe(2);
    expect(errorLine(validate.stderr)).toBe(
      'droidcheck: DROIDCHECK_ERR_CONFIG: scenarios/simulated.yaml:4:5: "simulate" needs a chat model to play the customer: pass --simulator-model or --judge-model (or judge.simulatorModel / judge.model in droidcheck.config.yaml) and point OPENAI_BASE_URL at an OpenAI-compatible endpoint (or set OPENAI_API_KEY for OpenAI); see docs/llm.md',
    );
    expect(errorLine(run.stderr)).toBe(errorLine(validate.stderr));
    expect(validate.stdout).not.toContain('ok:');

    const configured = await cli(['validate', '--simulator-model', 'llama3.1:8b'], {
      cwd,
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
    });
    expect(configured.code, configured.stderr).toBe(0);
    expect(configured.stdout).toBe('ok: 1 suite(s), 1 scenario(s), 0 step(s)\n');
  });

  it("the config file's paths, tags and remote target, read as run reads them", async () => {
    const cwd = await project('remote', {
      'scenarios/async.yaml': ASYNC,
      'droidcheck.config.yaml': 'baseUrl: http://127.0.0.1:9\ndroidId: 7\n',
    });
    const env = { DROID_API_TOKEN: 'validate-token-0123456789' };
    // Async answers arrive as webhooks, at a URL the service's settings must name: no random port.
    const validate = await cli(['validate'], { cwd, env });
    expect(validate.code, validate.stderr).toBe(2);
    expect(errorLine(validate.stderr)).toMatch(
      /^droidcheck: DROIDCHECK_ERR_CONFIG: 1 scenario\(s\) \(e\.g\. "hello"\) wait for the service's webhooks, but the receiver would listen on a random port/,
    );
    expect((await cli(['validate', '--config', 'none.yaml'], { cwd, env })).stderr).toContain(
      '--config: cannot read none.yaml: ENOENT',
    );
    await writeFile(join(cwd, 'fixed.yaml'), 'baseUrl: http://127.0.0.1:9\ndroidId: 7\nreceiverPort: 8788\n');
    expect((await cli(['validate', '--config', 'fixed.yaml'], { cwd, env })).code).toBe(0);
    // A filter of the file that leaves nothing: run's refusal.
    await writeFile(join(cwd, 'tagged.yaml'), 'tags: [nothing]\n');
    const tagged = await cli(['validate', '--config', 'tagged.yaml'], { cwd, env });
    expect(tagged.code).toBe(2);
    expect(tagged.stderr).toContain('DROIDCHECK_ERR_USAGE: no scenario is left after --tag nothing');
  });
});
