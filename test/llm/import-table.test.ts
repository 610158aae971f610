/**
 * `droidcheck import --table`: the imported AI turns as one table scenario whose rows (a JSON
 * lines file beside the suite) expand into exactly the scenarios `import` writes without it
 * (same names, history, message and `similar` expectation), and that pass against the emulator
 * the conversations came from.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { runImport, type ImportIo } from '../../src/jobs/import/import.js';
import { createGrader, resolveLlmConfig, type Grader } from '../../src/llm/index.js';
import { PlanSource, runEngine } from '../../src/runner/index.js';
import { loadSuites, type Scenario } from '../../src/scenario/index.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai.js';

let rig: Loopback;
let llm: FakeOpenAi;
let dir: string;
let grader: Grader;

const io = (): ImportIo => ({ stdout: new PassThrough(), stderr: new PassThrough() });

beforeEach(async () => {
  rig = await startLoopback();
  llm = await startFakeOpenAi();
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-import-table-'));
  grader = createGrader(resolveLlmConfig({ embeddingModel: 'embed-1' }, { OPENAI_BASE_URL: llm.url }, undefined, dir)!);
});
afterEach(async () => {
  await grader.close();
  await llm.close();
  await rig.close();
  await rm(dir, { recursive: true, force: true });
});

const target = () => ({
  baseUrl: `http://127.0.0.1:${(rig.emulator.app.server.address() as { port: number }).port}`,
  droidId: rig.emulator.droidId,
  token: rig.emulator.token,
});

/** What a run sends and checks of a scenario (its location and vars aside: a row has its own). */
const sent = (s: Scenario) => [
  s.name,
  s.tags,
  s.chatHistory,
  s.humanMessage,
  s.expect.map((e) => [e.path, e.matcher, e.expected]),
];

describe('import --table', () => {
  it('writes one table scenario and its rows, expanding into the scenarios import writes without it', async () => {
    const customers = [2001, 2002];
    const plain = join(dir, 'plain.yaml');
    await runImport({ ...target(), customers, out: plain }, io());
    const out = join(dir, 'imported.yaml');
    const result = await runImport({ ...target(), customers, out, table: true }, io());
    expect(result.scenarios).toBe(4);
    const rows = (await readFile(join(dir, 'imported.rows.jsonl'), 'utf8')).trim().split('\n');
    expect(rows.map((r) => Object.keys(JSON.parse(r) as object))).toEqual(
      Array(4).fill(['customer', 'turn', 'excerpt', 'message', 'answer', 'history']),
    );
    expect(await readFile(out, 'utf8')).toContain('each: ./imported.rows.jsonl');
    const [table] = await loadSuites([out]);
    const [perTurn] = await loadSuites([plain]);
    expect(table!.scenarios.map(sent)).toEqual(perTurn!.scenarios.map(sent));

    const run = await runEngine({
      source: PlanSource.of([table!]),
      scheduler: { kind: 'closed', concurrency: 4 },
      client: rig.client,
      receiver: rig.receiver,
      timeoutMs: 10_000,
      keepRecords: true,
      grader,
    });
    expect(run.records).toHaveLength(8);
    expect(run.records!.filter((r) => !r.passed).map((r) => [r.scenario, r.mode, r.failures])).toEqual([]);
  });

  it('is refused with --turns conversation, and over an existing rows file without --force', async () => {
    const out = join(dir, 'talks.yaml');
    await expect(
      runImport({ ...target(), customers: [2001], out, table: true, turns: 'conversation' }, io()),
    ).rejects.toThrow(UsageError);
    await runImport({ ...target(), customers: [2001], out, table: true }, io());
    await rm(out);
    await expect(runImport({ ...target(), customers: [2001], out, table: true }, io())).rejects.toThrow(
      /talks\.rows\.jsonl \(the rows of --table\) exists; pass --force/,
    );
    expect(existsSync(out)).toBe(false);
  });
});
