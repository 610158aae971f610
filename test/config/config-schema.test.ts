/**
 * The config file's JSON Schema (droidcheck.config.schema.json) is generated from the table of
 * options: the shipped file is what `droidcheck schema --config` prints today, `droidcheck init`
 * writes it beside droidcheck.config.yaml (whose first line names it for the YAML language
 * server), it accepts the config file init writes and refuses a misspelt or misplaced key, as an
 * editor would (ajv, draft 2020-12).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configJsonSchema } from '../../src/config/index.js';
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
