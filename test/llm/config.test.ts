/**
 * resolveLlmConfig (flags > environment > config file > defaults), the `judge:` section's
 * validation, and the check before anything is sent that a suite using judge/similar has
 * what it needs (needsGrader + assertGraderConfig).
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { assertGraderConfig, LLM_DEFAULTS, resolveLlmConfig } from '../../src/llm/index.js';
import { needsGrader, parseSuite } from '../../src/scenario/index.js';

const ENV = { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1/', OPENAI_API_KEY: 'sk-config-test' };

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).code).toBe('DROIDCHECK_ERR_CONFIG');
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveLlmConfig', () => {
  it('is undefined when no model and no endpoint is configured anywhere', () => {
    expect(resolveLlmConfig({}, { OPENAI_API_KEY: 'sk-x' }, undefined)).toBeUndefined();
    expect(resolveLlmConfig({}, {}, { concurrency: 2 })).toBeUndefined();
  });

  it('with an endpoint and no model, resolves without models (discoverModels asks the endpoint)', () => {
    expect(resolveLlmConfig({}, ENV, undefined)).toMatchObject({
      baseUrl: 'http://127.0.0.1:11434/v1',
      judgeModel: undefined,
      embeddingModel: undefined,
    });
    expect(resolveLlmConfig({}, {}, { baseUrl: 'http://127.0.0.1:8000/v1' })).toMatchObject({
      baseUrl: 'http://127.0.0.1:8000/v1',
      judgeModel: undefined,
    });
  });

  it('takes flags over the file, the environment over the file, and defaults last', () => {
    const c = resolveLlmConfig(
      { judgeModel: 'flag-model' },
      ENV,
      { model: 'file-model', embeddingModel: 'file-embed', baseUrl: 'http://ignored.example/v1' },
      '/srv/project',
    );
    expect(c).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'sk-config-test',
      judgeModel: 'flag-model',
      // No simulator model given: the judge model plays the customer.
      simulatorModel: 'flag-model',
      embeddingModel: 'file-embed',
      concurrency: LLM_DEFAULTS.concurrency,
      timeoutMs: 60_000,
      retries: 2,
      margin: 0.1,
      cacheDir: resolve('/srv/project', '.droidcheck/cache'),
    });
  });

  it('reads the file section: base URL, bounds, margin, cache directory; --no-cache turns the cache off', () => {
    const file = {
      model: 'm',
      baseUrl: 'http://127.0.0.1:8000/v1',
      concurrency: 8,
      timeout: '30s',
      retries: 0,
      margin: 0.05,
      cacheDir: 'tmp/cache',
    };
    expect(resolveLlmConfig({}, {}, file, '/p')).toMatchObject({
      baseUrl: 'http://127.0.0.1:8000/v1',
      apiKey: undefined,
      concurrency: 8,
      timeoutMs: 30_000,
      retries: 0,
      margin: 0.05,
      cacheDir: '/p/tmp/cache',
    });
    expect(resolveLlmConfig({ cache: false }, {}, file)?.cacheDir).toBeUndefined();
  });

  it('takes the simulator model from --simulator-model, then judge.simulatorModel, then the judge model', () => {
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' };
    expect(
      resolveLlmConfig({ judgeModel: 'j', simulatorModel: 's-flag' }, env, { simulatorModel: 's-file' })
        ?.simulatorModel,
    ).toBe('s-flag');
    expect(resolveLlmConfig({ judgeModel: 'j' }, env, { simulatorModel: 's-file' })?.simulatorModel).toBe('s-file');
    expect(resolveLlmConfig({}, env, { simulatorModel: 's-file' })).toMatchObject({
      simulatorModel: 's-file',
      judgeModel: undefined,
    });
    expect(configError(() => resolveLlmConfig({ simulatorModel: 's' }, {}, undefined))).toContain(
      'a simulator model (--simulator-model) is configured but no endpoint',
    );
  });

  it('with only OPENAI_API_KEY, talks to OpenAI itself', () => {
    expect(
      resolveLlmConfig({ embeddingModel: 'text-embedding-3-small' }, { OPENAI_API_KEY: 'sk-x' }, undefined)?.baseUrl,
    ).toBe('https://api.openai.com/v1');
  });

  it('a model without any endpoint is a ConfigError saying how to fix it', () => {
    expect(configError(() => resolveLlmConfig({ judgeModel: 'llama3.1' }, {}, undefined))).toContain(
      'set OPENAI_BASE_URL (e.g. http://127.0.0.1:11434/v1 for a local Ollama) or OPENAI_API_KEY',
    );
  });

  it.each([
    [{ apiKey: 'sk-in-the-file' }, 'judge.apiKey does not belong in a file: export OPENAI_API_KEY'],
    [{ model: 'm', concurrency: 0 }, 'judge.concurrency'],
    [{ model: 'm', timeout: '30' }, 'judge.timeout: timeout is a duration with a unit'],
    [{ model: 'm', margin: 0.9 }, 'judge.margin'],
    [{ model: 'm', modle: 'x' }, 'modle'],
    ['gpt-4o', 'judge'],
  ])('refuses the file section %j', (section, text) => {
    expect(configError(() => resolveLlmConfig({}, ENV, section))).toContain(text);
  });

  it('refuses a base URL that is not an http(s) URL', () => {
    expect(
      configError(() => resolveLlmConfig({ judgeModel: 'm' }, { OPENAI_BASE_URL: '127.0.0.1:11434' }, undefined)),
    ).toContain('OPENAI_BASE_URL');
  });
});

describe('needsGrader + assertGraderConfig: a clear error before anything is sent', () => {
  const suite = parseSuite(
    [
      'suite: s',
      'scenarios:',
      '  - name: plain',
      '    humanMessage: hi',
      '    expect: { intents: { includes: greeting } }',
      '  - name: graded',
      '    humanMessage: hi',
      '    expect:',
      '      answer: { similar: "Hello", judge: "Greets" }',
      '  - name: stepped',
      '    steps:',
      '      - call: ask',
      '        customerId: 1001',
      '        prompt: Sentiment as JSON',
      '        expect: { answer: { json: { summary: { judge: "Summarises" } } } }',
    ].join('\n'),
    'suite.yaml',
  );

  it('finds every use, in scenarios, steps and json, with its location', () => {
    expect(needsGrader([suite])).toEqual([
      { matcher: 'similar', location: { file: 'suite.yaml', line: 9, col: 17 } },
      { matcher: 'judge', location: { file: 'suite.yaml', line: 9, col: 35 } },
      { matcher: 'judge', location: { file: 'suite.yaml', line: 15, col: 48 } },
    ]);
    expect(needsGrader([{ ...suite, scenarios: suite.scenarios.slice(0, 1) }])).toEqual([]);
  });

  it('names the file:line:col of the first use and what to configure', () => {
    const uses = needsGrader([suite]);
    expect(configError(() => assertGraderConfig(uses, undefined))).toMatch(
      /^suite\.yaml:9:35: "judge" needs a chat model: pass --judge-model/,
    );
    const judgeOnly = resolveLlmConfig({ judgeModel: 'm' }, ENV, undefined);
    expect(configError(() => assertGraderConfig(uses, judgeOnly))).toMatch(
      /^suite\.yaml:9:17: "similar" needs an embedding model: pass --embedding-model/,
    );
    expect(() =>
      assertGraderConfig(uses, resolveLlmConfig({ judgeModel: 'm', embeddingModel: 'e' }, ENV, undefined)),
    ).not.toThrow();
    expect(() => assertGraderConfig([], undefined)).not.toThrow();
  });
});
