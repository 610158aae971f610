/**
 * Conversations under `load` against the embedded emulator: a 3-turn steps scenario with think
 * time reports latency by turn in report.json (byTurn, readable back), Markdown and the console;
 * a `turnN.*` threshold is judged (too few samples for a p99: not a breach; a max: judged); the
 * timeline counts the open conversations.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { runLoad } from '../../src/jobs/index.js';
import { readReportFile } from '../../src/report/index.js';
import { collectReportDir, passedExitCode } from '../helpers/cli.js';
import { sink } from '../helpers/in-process-cli.js';

const SUITE = `
suite: Talk
scenarios:
  - name: three turns
    think: 2s
    steps:
      - say: Hi, do you sell shirts?
      - say: I want to buy 2 Oxford shirts
      - say: Send them to 99 Sukhumvit Rd, Bangkok 10110
        think: { min: 2s, max: 2500ms }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-talk-'));
  await writeFile(join(dir, 'talk.yaml'), SUITE);
  // Pauses of 10 minutes: a run that did not skip them could not end answered within the test's time.
  await writeFile(join(dir, 'long.yaml'), SUITE.replace('think: 2s', 'think: 10m'));
});
afterAll(async () => {
  for (const sub of await readdir(dir)) collectReportDir(join(dir, sub));
  await rm(dir, { recursive: true, force: true });
});

describe('load: conversations with think time', () => {
  it('reports latency by turn in every format, judges turn thresholds and counts open conversations', async () => {
    const reportDir = join(dir, 'out');
    const thresholds = ['turn2.answer.p99 < 20s', 'turn3.sync.max < 60s', 'turn9.answer.max < 1s'];
    const config = resolveConfig(
      'load',
      {
        paths: [join(dir, 'talk.yaml')],
        rate: 20,
        duration: '1s',
        mode: 'both',
        reportDir,
        progress: 0,
        timeout: '30s',
        emulatorThread: 'inline',
        thresholds,
        reporters: ['console', 'json', 'markdown', 'html'],
        // The console's default shows the table only from 10 samples of a later turn; a second of load may have fewer.
        verbose: true,
      },
      {},
    );
    const out = sink();
    const summary = await runLoad(config, { stdout: out, stderr: sink(), env: {} });
    const report = await readReportFile(join(reportDir, 'report.json'));
    // A busy machine can bind the generator, but a send delay of milliseconds cannot move these
    // figures across limits of seconds: every threshold is judged (metrics/thresholds-trust.ts).
    expect(summary.exitCode).toBe(0);
    const sent = report.load!.sent;
    expect(sent).toBeGreaterThan(5);
    expect(report.summary.outcomes.answered).toBe(sent);
    expect(Object.keys(report.byTurn!)).toEqual(['1', '2', '3']);
    for (const turn of ['1', '2', '3']) {
      const t = report.byTurn![turn]!;
      // Every conversation ran each turn once, in its mode: sync turns + answer turns = conversations.
      expect((t.sync?.count ?? 0) + (t.answer?.count ?? 0)).toBe(sent);
      expect(t.ack?.count).toBe(t.answer?.count);
      // The pause before turns 2 and 3 (>= 2 s) is not in their latency (the emulator answers in
      // milliseconds; pauses this long keep the check true on a loaded machine).
      for (const s of [t.sync, t.answer]) if (s) expect(s.max).toBeLessThan(2000);
    }
    expect(report.byTurnHistograms!['2']!.answer!.length).toBeGreaterThan(10);
    expect(report.settings.thresholds).toEqual(thresholds);
    const byName = Object.fromEntries(report.thresholds.map((t) => [t.expression, t]));
    expect(byName['turn2.answer.p99 < 20s']).toMatchObject({
      status: 'too-few-samples',
      passed: true,
      minCount: 100,
      count: report.byTurn!['2']!.answer!.count,
    });
    expect(byName['turn3.sync.max < 60s']).toMatchObject({
      status: 'passed',
      count: report.byTurn!['3']!.sync!.count,
    });
    expect(byName['turn9.answer.max < 1s']).toMatchObject({ status: 'no-samples', actual: null });
    // Open conversations over time: at least one interval saw several at once (pauses included).
    expect(Math.max(...report.timeline!.points.map((p) => p.maxOpenConversations ?? 0))).toBeGreaterThan(1);
    expect(report.timeline!.points.at(-1)!.openConversations).toBe(0);
    const md = await readFile(join(reportDir, 'summary.md'), 'utf8');
    expect(md).toContain('### Latency by turn');
    expect(md).toMatch(/\| 3 \| answer \| \d+ \|/);
    expect(out.text).toContain('Latency by turn');
    expect(out.text).toMatch(/\n\s*2\s+sync\s+\d+\s/);
    expect(await readFile(join(reportDir, 'report.html'), 'utf8')).toContain('id="by-turn"');
  });

  it('--no-think: the same conversation without its pauses', async () => {
    const reportDir = join(dir, 'no-think');
    const config = resolveConfig(
      'load',
      {
        paths: [join(dir, 'long.yaml')],
        rate: 10,
        duration: '500ms',
        mode: 'sync',
        reportDir,
        progress: 0,
        timeout: '30s',
        emulatorThread: 'inline',
        think: false,
        reporters: ['json'],
      },
      {},
    );
    const summary = await runLoad(config, { stdout: sink(), stderr: sink(), env: {} });
    expect(summary.exitCode).toBe(passedExitCode(reportDir));
    const report = await readReportFile(join(reportDir, 'report.json'));
    expect(report.settings.think).toBe(false);
    expect(report.summary.outcomes.answered).toBe(report.load!.sent);
    expect(report.byTurn!['3']!.sync!.count).toBe(report.load!.sent);
  });
});
