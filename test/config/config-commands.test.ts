/**
 * The configuration of every command, end to end through the CLI (runProgram, what the binary
 * runs) on the embedded emulator (inline) on 127.0.0.1: the folder `droidcheck init` writes runs
 * `load --rate`; a file's closed model gives way to the open model a flag asks; a file's mistake
 * is the file's, at its line:col; dropped arrivals are a verdict (exit 99) naming the cap.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultInFlightCap,
  heapAdvice,
  inFlightMemory,
  PENDING_REQUEST_BYTES,
  resolveConfig,
} from '../../src/config/index.js';
import { inFlightLine } from '../../src/jobs/load/load.js';
import { passedExitCode } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process-cli.js';

const cli = cliInProcess;

let dir: string;
let suite: string;
/**
 * For the tests of dropped arrivals: each arrival holds its slot for at least the 50 ms pause
 * between two turns, ten times the 5 ms between arrivals at 200 req/s, so a cap of 1 drops
 * however fast the machine answers (a one-turn answer in under 5 ms dropped nothing on an idle
 * machine).
 */
let slow: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-config-'));
  slow = join(dir, 'slow.yaml');
  await writeFile(
    slow,
    'suite: slow\nscenarios:\n  - name: two turns\n    modes: [async]\n    steps:\n      - say: Hello!\n      - say: Thanks\n        think: 50ms\n',
  );
  suite = join(dir, 'ok.yaml');
  await writeFile(
    suite,
    'suite: ok\nscenarios:\n  - name: greets\n    modes: [sync, async]\n    humanMessage: Hello!\n    expect:\n      intents: { includes: greeting }\n',
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the config file of every command', () => {
  it('the folder droidcheck init writes runs `load --rate` (its config holds only what every command takes)', async () => {
    const project = join(dir, 'init');
    expect((await cli(['init', project])).code).toBe(0);
    const config = join(project, 'droidcheck.config.yaml');
    const settings = (await readFile(config, 'utf8')).split('\n').filter((line) => !line.startsWith('#'));
    expect(settings.join('\n')).not.toMatch(/concurrency|ack\.p99/);
    const out = await cli([
      'load',
      join(project, 'scenarios'),
      '--config',
      config,
      '--rate',
      '5',
      '-d',
      '1s',
      '--max-requests',
      '3',
      '--mode',
      'async',
      '-r',
      'json',
      '-o',
      join(dir, 'init-out'),
      '--progress',
      '0',
    ]);
    expect(out.stderr).not.toContain('closed model');
    expect([1, passedExitCode(join(dir, 'init-out'))], out.stderr).toContain(out.code);
  });

  it("a file's load.concurrency gives way to --rate on the command line (flags beat the file)", async () => {
    const config = join(dir, 'closed.yaml');
    await writeFile(config, 'reportDir: out\nload:\n  concurrency: 8\n');
    const out = await cli([
      'load',
      suite,
      '--config',
      config,
      '--rate',
      '5',
      '-d',
      '1s',
      '--max-requests',
      '3',
      '--mode',
      'sync',
      '-r',
      'json',
      '-o',
      join(dir, 'closed-out'),
      '--progress',
      '0',
    ]);
    expect(out.code, out.stderr).toBe(passedExitCode(join(dir, 'closed-out')));
    const report = JSON.parse(await readFile(join(dir, 'closed-out', 'report.json'), 'utf8')) as {
      load: { model: string };
    };
    expect(report.load.model).toBe('open');
  });

  it("a top-level concurrency (the old starter's) is the file's mistake, at its line:col, saying where it goes", async () => {
    const config = join(dir, 'old.yaml');
    await writeFile(config, 'paths: [scenarios]\nconcurrency: 8\n');
    const out = await cli(['load', suite, '--config', config, '--rate', '5']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      `${config}:2:1: "concurrency" is an option of droidcheck run and droidcheck load, not of every command: put it under \`run:\` or \`load:\``,
    );
  });

  it('`run --rate 5` says --rate is an option of droidcheck load', async () => {
    const out = await cli(['run', suite, '--rate', '5']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--rate is an option of `droidcheck load`, not of `droidcheck run`');
    expect(out.stderr).not.toContain('--grace');
    expect((await cli(['run', suite, '--max-rate', '5'])).stderr).toContain(
      '--max-rate is an option of `droidcheck capacity`',
    );
  });
});

describe('dropped arrivals', () => {
  it('derives the default in-flight cap from the load asked: peak rate × timeout × 1.2', () => {
    expect(defaultInFlightCap(1000, 120_000)).toBe(144_000);
    const launch = resolveConfig('load', { rate: 1000, timeout: '120s' }, {});
    expect(launch.load).toMatchObject({ maxInFlight: 144_000, maxInFlightDerived: true });
    expect(
      resolveConfig('load', { stages: '10s:100,10s:400', timeout: '180s', shard: '1/2' }, {}).load.maxInFlight,
    ).toBe(Math.ceil((400 / 2) * 180 * 1.2));
    expect(resolveConfig('load', { rate: 1, maxInFlight: 50 }, {}).load).toMatchObject({
      maxInFlight: 50,
      maxInFlightDerived: false,
    });
    expect(resolveConfig('capacity', { maxRate: 100, timeout: '60s' }, {}).capacity.maxInFlight).toBe(7200);
    expect(PENDING_REQUEST_BYTES).toBe(700);
    expect(inFlightMemory(144_000)).toBe('~101 MB');
    // A cap whose requests would not fit in this Node's heap says so, with the setting that holds them.
    expect(heapAdvice(144_000, 40e6, 4_400e6)).toBeUndefined();
    expect(heapAdvice(1_000_000, 40e6, 512e6)).toBe(
      "1000000 pending requests need ~915 MB of heap, over this Node's limit of 512 MB: run with NODE_OPTIONS=--max-old-space-size=1280 (the machine needs that much memory free) or lower --max-in-flight",
    );
    expect(
      inFlightLine({ maxInFlight: 1_000_000, maxInFlightDerived: false }, 180_000, 'load', {
        used_heap_size: 40e6,
        heap_size_limit: 512e6,
      }),
    ).toMatch(/dropped; 1000000 pending requests need ~915 MB of heap, .*--max-old-space-size=1280/);
    expect(inFlightLine(launch.load, launch.timeoutMs)).toBe(
      'droidcheck load: in-flight cap 144000 requests (derived from the peak arrival rate × --timeout 120 s × 1.2, at least 1000); up to ~101 MB of heap at ~0.7 KB per pending request (measured); arrivals beyond it are dropped',
    );
  });

  it('a load that drops arrivals at its cap exits 99 on load.dropped.rate < 1%, naming the cap and how to raise it', async () => {
    const out = join(dir, 'dropped');
    const r = await cli([
      'load',
      slow,
      '--rate',
      '200',
      '-d',
      '1s',
      '--max-in-flight',
      '1',
      '--mode',
      'async',
      '-r',
      'json',
      '-o',
      out,
      '--progress',
      '0',
    ]);
    expect(r.code, r.stderr).toBe(99);
    expect(r.stderr).toContain('droidcheck load: in-flight cap 1 requests (from --max-in-flight)');
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as {
      load: { dropped: number; generator: { message: string } };
      thresholds: { metric: string; status: string }[];
    };
    expect(report.load.dropped).toBeGreaterThan(0);
    expect(report.thresholds.find((t) => t.metric === 'load.dropped.rate')).toMatchObject({ status: 'breached' });
    expect(report.load.generator.message).toMatch(
      /arrivals \([\d.]+%\) were dropped at the in-flight cap of 1 requests \(raise it with --max-in-flight/,
    );
  });

  it('a capacity step that drops arrivals does not pass, and the log names the cap', async () => {
    const r = await cli([
      'capacity',
      slow,
      '--start-rate',
      '200',
      '--max-steps',
      '1',
      '--step-duration',
      '1s',
      '--warmup',
      '0',
      '--max-in-flight',
      '1',
      '--mode',
      'async',
      '-r',
      'json',
      '-o',
      join(dir, 'capacity-dropped'),
    ]);
    expect(r.code, r.stderr).toBe(99);
    expect(r.stderr).toContain('droidcheck capacity: in-flight cap 1 requests (from --max-in-flight)');
    expect(r.stderr).toMatch(/arrivals dropped at the in-flight cap/);
    expect(r.stderr).toContain(
      'droidcheck capacity: arrivals were dropped at the in-flight cap of 1 requests (first at 200 req/s): a rate that drops does not pass; raise the cap with --max-in-flight',
    );
  });
});
