/**
 * The config file's JSON Schema (droidcheck.config.schema.json) is generated from the table of
 * options: the shipped file is what `droidcheck schema --config` prints today, `droidcheck init`
 * writes it beside droidcheck.config.yaml (whose first line names it for the YAML language
 * server), it accepts the config file init writes and refuses a misspelt or misplaced key, as an
 * editor would (ajv, draft 2020-12); and it refuses the values droidcheck refuses: the same files
 * fed to the schema and to the product get the same verdict, for every key of the table whose
 * parser states what it takes (a duration's unit, a choice, a number's bounds).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { configJsonSchema, OPTIONS, parseConfigFile, type OptionKey, type OptionSpec } from '../../src/config/index.js';
import { fileKeys, type Section } from '../../src/config/file-issues.js';
import { REPO } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process-cli.js';

const cli = cliInProcess;

const SCHEMA_FILE = 'droidcheck.config.schema.json';
const validate = new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile(configJsonSchema());
/** What ajv says of `data`: [] when valid, else "path: message (the key)". */
const problems = (data: unknown): string[] =>
  validate(data)
    ? []
    : (validate.errors ?? []).map(
        (e) =>
          `${e.instancePath || '/'}: ${e.message}${e.params.additionalProperty ? ` (${e.params.additionalProperty})` : ''}`,
      );

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-config-schema-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('droidcheck.config.schema.json', () => {
  it(`the shipped ${SCHEMA_FILE} is what \`droidcheck schema --config\` prints today (regenerate: npx droidcheck schema --config > ${SCHEMA_FILE})`, async () => {
    const shipped = JSON.parse(await readFile(join(REPO, SCHEMA_FILE), 'utf8')) as unknown;
    expect(shipped).toEqual(configJsonSchema());
    const printed = await cli(['schema', '--config']);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(shipped);
    const pkg = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files, 'the schema ships with the package').toContain(SCHEMA_FILE);
  });

  it('droidcheck init writes it beside droidcheck.config.yaml, whose first line names it; it accepts that file', async () => {
    const project = join(dir, 'init');
    const out = await cli(['init', project]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`wrote ${SCHEMA_FILE}`);
    expect(JSON.parse(await readFile(join(project, SCHEMA_FILE), 'utf8'))).toEqual(configJsonSchema());
    const text = await readFile(join(project, 'droidcheck.config.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=./${SCHEMA_FILE}`);
    const config = parse(text) as Record<string, unknown>;
    expect(Object.keys(config).length, 'the starter config sets options').toBeGreaterThan(0);
    expect(problems(config)).toEqual([]);
  });

  it('refuses a misspelt key, at the top level and in a section, and a key in the wrong place', () => {
    expect(problems({ timout: '10s' })).toEqual(['/: must NOT have additional properties (timout)']);
    expect(problems({ load: { concurency: 8 } })).toEqual(['/load: must NOT have additional properties (concurency)']);
    // concurrency belongs to run: and load:, not to the top level (the load model is per command).
    expect(problems({ concurrency: 8 })).toEqual(['/: must NOT have additional properties (concurrency)']);
    // Not a config-file key: a per-invocation option, and a token (never in a file).
    expect(problems({ run: { shard: '1/2' } })).toEqual(['/run: must NOT have additional properties (shard)']);
    expect(problems({ token: 'a-token-in-a-file' })).toEqual(['/: must NOT have additional properties (token)']);
    expect(problems({ timeout: true })).not.toEqual([]);
    expect(
      problems({
        timeout: '30s',
        run: { concurrency: 4 },
        load: { rate: 50, concurrency: '8' },
        judge: { model: 'm' },
      }),
    ).toEqual([]);
  });

  it("shows each option's help and the table's default to the editor", () => {
    const schema = configJsonSchema() as {
      properties: Record<
        string,
        { description?: string; default?: unknown; properties?: Record<string, { default?: unknown }> }
      >;
    };
    expect(schema.properties.timeout).toMatchObject({
      description: 'deadline per request (sync answer or webhook)',
      default: '180s',
    });
    expect(schema.properties.capacity!.properties!.warmup!.default).toBe('2s');
    expect(schema.properties.load!.properties!.warmup!.default).toBe(0);
  });
});

/** What droidcheck says of a config file: [] when it reads it, else each problem. */
function productProblems(data: unknown): string[] {
  try {
    parseConfigFile(stringify(data), 'c.yaml');
    return [];
  } catch (err) {
    return (err as { issues?: { message: string }[] }).issues?.map((i) => i.message) ?? [String(err)];
  }
}

/**
 * Values a file may hold, as YAML gives them: numbers and texts with and without units, in and
 * out of bounds, choices and near misses. A number written as a text beyond a bound (`"70000"` for
 * a port) is left out: a pattern cannot state the bound, the parser does (see options.ts
 * ValueSchema).
 */
const SAMPLES: readonly unknown[] = [
  5,
  '5',
  0,
  '0',
  0.5,
  '0.5',
  '.5',
  1,
  2,
  '2',
  1.5,
  '1.5',
  -1,
  '-1',
  100_001,
  2 ** 32,
  '5s',
  ' 2 s ',
  '250ms',
  '1.5m',
  '0s',
  '0.0ms',
  'soon',
  '1%',
  '100%',
  '150%',
  'step',
  'bisect',
  'templates',
  'adaptive',
  'sync',
  'async',
  'both',
  'turbo',
  'json',
  'nosuch',
  'prompt-leak',
  'prompt-leek',
];

/** Every file key whose parser has a schema, where it may stand (the top level, or its sections). */
const checked: [Section | undefined, OptionKey][] = [undefined, 'run', 'load', 'capacity', 'redteam'].flatMap(
  (section) =>
    fileKeys(section as Section | undefined)
      .filter((k) => (OPTIONS[k] as OptionSpec).parse && 'json' in (OPTIONS[k] as OptionSpec).parse)
      .map((k): [Section | undefined, OptionKey] => [section as Section | undefined, k]),
);

describe('the schema refuses what droidcheck refuses', () => {
  it('a duration without its unit: `timeout: 5`, as `run` says ("needs a unit")', () => {
    expect(problems({ timeout: 5 })).not.toEqual([]);
    expect(productProblems({ timeout: 5 })).toEqual(['timeout: "5" needs a unit: write 5ms or 5s']);
    expect(problems({ timeout: '5s' })).toEqual([]);
    expect(productProblems({ timeout: '5s' })).toEqual([]);
  });

  it('checks the keys of every parser with a schema, durations, choices and bounded numbers among them', () => {
    const keys = new Set(checked.map(([, k]) => k));
    for (const k of ['timeout', 'warmup', 'stepDuration', 'mode', 'strategy', 'concurrency', 'rate', 'minPassRate'])
      expect(keys, k).toContain(k);
  });

  it.each(checked.map(([section, key]) => [section ? `${section}.${key}` : key, section, key] as const))(
    '%s: the schema and droidcheck give every sample value the same verdict',
    (_label, section, key) => {
      const list = (OPTIONS[key] as OptionSpec).kind === 'list';
      const disagreements = SAMPLES.flatMap((sample) => {
        const value = list ? [sample] : sample;
        const data = section ? { [section]: { [key]: value } } : { [key]: value };
        const schema = problems(data).length === 0;
        const product = productProblems(data);
        return schema === (product.length === 0)
          ? []
          : [
              `${JSON.stringify(value)}: schema ${schema ? 'accepts' : 'refuses'}, droidcheck ${product.length === 0 ? 'accepts' : `refuses (${product.join('; ')})`}`,
            ];
      });
      expect(disagreements).toEqual([]);
    },
  );
});
