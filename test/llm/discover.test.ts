/**
 * Judge and embedding models found without flags: no `--judge-model` / `--embedding-model` and
 * nothing in the config file, the endpoint's `GET /models` listing decides when it serves exactly
 * one model of the kind needed; otherwise exit 2 with what it serves. Against the fake
 * OpenAI-compatible server on loopback, through discoverModels and through the CLI.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { discoverModels, modelKind, resolveLlmConfig, type GraderUse } from '../../src/llm/index.js';
import { freePort } from '../helpers/cli.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai.js';

const KEY = 'sk-discover-test-key';
const JUDGE: GraderUse = { matcher: 'judge', location: { file: 'suite.yaml', line: 7, col: 15 } };
const SIMILAR: GraderUse = { matcher: 'similar', location: { file: 'suite.yaml', line: 9, col: 17 } };

let server: FakeOpenAi;
let dir: string;
beforeAll(async () => {
  server = await startFakeOpenAi();
  dir = mkdtempSync(join(tmpdir(), 'droidcheck-discover-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const listings = () => server.requests.filter((r) => r.path === '/v1/models');
const config = (file?: Record<string, unknown>) =>
  resolveLlmConfig({}, { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY }, file, dir);

async function configError(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  expect((err as ConfigError).exitCode).toBe(2);
  return (err as Error).message;
}

describe('modelKind', () => {
  it.each([
    [{ id: 'llama3.1:8b' }, 'chat'],
    [{ id: 'gpt-4o-mini' }, 'chat'],
    [{ id: 'text-embedding-3-small' }, 'embedding'],
    [{ id: 'nomic-embed-text:latest' }, 'embedding'],
    [{ id: 'BAAI/bge-small-en-v1.5' }, 'embedding'],
    [{ id: 'intfloat/e5-large' }, 'embedding'],
    [{ id: 'my-model', type: 'embeddings' }, 'embedding'],
    [{ id: 'text-embedding-lookalike', type: 'llm' }, 'chat'],
    [{ id: 'whisper-1' }, 'other'],
    [{ id: 'tts-1-hd' }, 'other'],
  ])('%j is %s', (entry, kind) => {
    expect(modelKind(entry)).toBe(kind);
  });
});

describe('discoverModels', () => {
  it('takes the one chat and the one embedding model the endpoint serves, asking it once with the key', async () => {
    server.onModels(() => ({ ids: ['llama3.1:8b', 'nomic-embed-text', 'whisper-1'] }));
    const before = listings().length;
    const c = await discoverModels([JUDGE, SIMILAR], config());
    expect(c).toMatchObject({ judgeModel: 'llama3.1:8b', embeddingModel: 'nomic-embed-text', baseUrl: server.url });
    expect(listings()).toHaveLength(before + 1);
    expect(listings().at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("uses the configuration file's model and asks only for the other", async () => {
    server.onModels(() => ({ ids: ['judge-a', 'judge-b', 'bge-m3'] }));
    const c = await discoverModels([JUDGE, SIMILAR], config({ model: 'judge-b' }));
    expect(c).toMatchObject({ judgeModel: 'judge-b', embeddingModel: 'bge-m3' });
  });

  it('asks nothing when the models are named, nothing is graded, or the endpoint is OpenAI itself', async () => {
    const before = listings().length;
    const named = resolveLlmConfig(
      { judgeModel: 'j', embeddingModel: 'e' },
      { OPENAI_BASE_URL: server.url },
      undefined,
      dir,
    );
    expect(await discoverModels([JUDGE, SIMILAR], named)).toBe(named);
    expect(await discoverModels([], config())).toBeUndefined(); // an endpoint alone grades nothing
    const judgeOnly = resolveLlmConfig({ judgeModel: 'j' }, { OPENAI_BASE_URL: server.url }, undefined, dir);
    expect(await discoverModels([JUDGE], judgeOnly)).toBe(judgeOnly);
    const openai = resolveLlmConfig({ judgeModel: 'gpt-4o-mini' }, { OPENAI_API_KEY: KEY }, undefined, dir);
    expect(await discoverModels([JUDGE, SIMILAR], openai)).toBe(openai);
    expect(await discoverModels([JUDGE], undefined)).toBeUndefined();
    expect(listings()).toHaveLength(before);
  });

  it('two chat models: exit 2 naming the use, the listing and the flag', async () => {
    server.onModels(() => ({ ids: ['llama3.1:8b', 'qwen2.5:7b', 'nomic-embed-text'] }));
    const message = await configError(discoverModels([JUDGE], config()));
    expect(message).toBe(
      `suite.yaml:7:15: "judge" needs a chat model and none is named; ${server.url}/models lists 2 chat models; it serves: llama3.1:8b (chat), qwen2.5:7b (chat), nomic-embed-text (embedding). Pass --judge-model NAME (or judge.model in droidcheck.config.yaml)`,
    );
  });

  it('no embedding model, or no models at all: exit 2 saying so', async () => {
    server.onModels(() => ({ ids: ['llama3.1:8b'] }));
    expect(await configError(discoverModels([SIMILAR], config()))).toContain(
      'lists no embedding model; it serves: llama3.1:8b (chat). Pass --embedding-model NAME',
    );
    server.onModels(() => ({ ids: [] }));
    expect(await configError(discoverModels([JUDGE], config()))).toContain('lists no models at all');
  });

  it('an endpoint that refuses, answers garbage or is not there: exit 2, the key never shown', async () => {
    server.onModels(() => ({ status: 401, body: { error: { message: `bad key ${KEY}` } } }));
    const refused = await configError(discoverModels([JUDGE], config()));
    expect(refused).toContain(`could not list the models ${server.url}/models serves (HTTP 401)`);
    expect(refused).not.toContain(KEY);
    server.onModels(() => ({ body: { models: 'none' } }));
    expect(await configError(discoverModels([JUDGE], config()))).toContain('not a JSON {"data": [...]} listing');
    const port = await freePort();
    const down = resolveLlmConfig({}, { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` }, undefined, dir);
    expect(await configError(discoverModels([JUDGE], down))).toContain('(ECONNREFUSED)');
  });
});

describe('droidcheck run without --judge-model', () => {
  const suite = [
    'suite: graded',
    'scenarios:',
    '  - name: greets',
    '    modes: [sync]',
    '    humanMessage: hello',
    '    expect:',
    '      answer: { judge: "Greets the customer" }',
    '',
  ].join('\n');

  it('grades with the one chat model the endpoint serves, and says which in the report settings', async () => {
    writeFileSync(join(dir, 'graded.yaml'), suite);
    server.onModels(() => ({ ids: ['only-judge', 'nomic-embed-text'] }));
    const before = server.chatRequests().length;
    const out = join(dir, 'reports-one');
    const res = await cli(['run', join(dir, 'graded.yaml'), '--no-cache', '-o', out, '-r', 'json'], {
      env: { OPENAI_BASE_URL: server.url },
      cwd: dir,
    });
    expect(res.code, res.stderr).toBe(0);
    const chats = server.chatRequests().slice(before);
    expect(chats.length).toBeGreaterThan(0);
    expect(chats.every((c) => c.model === 'only-judge')).toBe(true);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      settings: { judge?: { judgeModel?: string; embeddingModel?: string } };
    };
    expect(report.settings.judge).toMatchObject({ judgeModel: 'only-judge' });
    expect(report.settings.judge?.embeddingModel).toBeUndefined(); // not needed, not asked
  });

  it('exits 2 listing what the endpoint serves when it serves two chat models', async () => {
    writeFileSync(join(dir, 'graded.yaml'), suite);
    server.onModels(() => ({ ids: ['judge-a', 'judge-b'] }));
    const res = await cli(['run', join(dir, 'graded.yaml'), '--no-cache', '-o', join(dir, 'reports-two')], {
      env: { OPENAI_BASE_URL: server.url },
      cwd: dir,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('graded.yaml:7:');
    expect(res.stderr).toContain(
      'lists 2 chat models; it serves: judge-a (chat), judge-b (chat). Pass --judge-model NAME',
    );
    expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
