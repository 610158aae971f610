/**
 * The GitHub Action (action.yml at the repository root), run as a runner would run it
 * (./runner.ts): every command through it against the embedded emulator, the summary, the
 * outputs, the artifact's inputs, the pull-request comment, and inputs a command does not take.
 * The droidcheck it runs is this checkout's (already installed: the install step's "installed"
 * branch); install-step.test.ts covers the install and its cache.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTION_DIR, action, createMachine, runAction, type Machine } from './runner.js';

const machines: Machine[] = [];
afterAll(() => machines.forEach((m) => m.dispose()));
const machine = (files: Record<string, string>, ghExistingComment = ''): Machine => {
  const m = createMachine(files, ghExistingComment);
  machines.push(m);
  return m;
};

const suite = (expectText: string): string =>
  [
    'suite: action',
    'scenarios:',
    '  - name: orders scarves',
    '    modes: [sync]',
    '    humanMessage: I want 2 silk scarves',
    '    expect:',
    `      answer: { contains: ${expectText} }`,
    '',
  ].join('\n');

describe('action.yml', () => {
  it('is a composite action whose every input reaches the scripts through env, never pasted into a script', () => {
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps) if (step.run) expect(step.run, step.name).not.toMatch(/\$\{\{/);
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining([
        'command',
        'paths',
        'base-url',
        'droid-id',
        'public-url',
        'receiver-port',
        'deliveries',
        'thresholds',
        'baseline',
        'comment',
        'report-dir',
        'working-directory',
        'config',
        'policy',
        'args',
      ]),
    );
    // The npm registry has no droidcheck package: an input installing one would fail.
    expect(Object.keys(action.inputs)).not.toContain('version');
  });

  it('runs droidcheck, puts summary.md in the job summary, sets exit-code 0, uploads the reports and comments on the pull request', async () => {
    const m = machine({ 'suites/a.yaml': suite('scarf') });
    const r = await runAction(m, {
      comment: 'true',
      paths: 'suites',
      thresholds: 'sync.p50 < 180s\n  sync.max < 180s',
    });
    expect(r.failedStep, m.log).toBeUndefined();
    expect(r.outputs['exit-code'], m.log).toBe('0');
    const reportDir = join(m.workspace, 'reports');
    expect(r.outputs['report-dir']).toBe(reportDir);
    expect(r.outputs.summary).toBe(join(reportDir, 'summary.md'));
    const md = readFileSync(join(reportDir, 'summary.md'), 'utf8');
    expect(md).toMatch(/^## .*droidcheck run: 1 passed, 0 failed \(exit 0\)$/m);
    // The thresholds input, one per line, reached droidcheck.
    expect(md).toMatch(/sync\.p50 < 180/);
    // In the job summary once (droidcheck's own append is turned off for the run step).
    expect(readFileSync(m.summaryFile, 'utf8').trim()).toBe(md.trim());
    expect(m.log).toMatch(/droidcheck \S+ on Node\.js v\d+/);
    expect(m.log).toContain('droidcheck: installed already');
    // uses: steps, with their inputs resolved.
    const uses = (name: string) => m.uses.find((u) => u.uses === name)?.with;
    expect(uses('actions/setup-node@v4')).toEqual({ 'node-version': 'lts/*' });
    expect(uses('actions/cache@v4')).toEqual({
      path: `${ACTION_DIR}/node_modules\n${ACTION_DIR}/dist`,
      key: expect.stringMatching(/^droidcheck-install-Linux-X64-nodev\d+\.\d+\.\d+-[0-9a-f]{24}$/),
    });
    expect(uses('actions/upload-artifact@v4')).toEqual({
      name: 'droidcheck-reports',
      path: reportDir,
      'if-no-files-found': 'warn',
    });
    // gh: the listing of comments, then a new comment whose body is the marker and summary.md.
    const gh = m.ghCalls();
    expect(gh[0]).toContain('api repos/acme/shop-droid/issues/42/comments --paginate');
    expect(gh[1]).toMatch(
      /^api --method POST repos\/acme\/shop-droid\/issues\/42\/comments -f body=<!-- droidcheck summary -->\n/,
    );
    expect(gh.join('\n')).toContain('droidcheck run: 1 passed, 0 failed (exit 0)');
  });

  it('an expectation that fails: exit-code 1, the summary still written, the comment edited in place, the step failed with 1', async () => {
    const m = machine({ 'suites/a.yaml': suite('zebra-unicorn') }, '777');
    const r = await runAction(m, { comment: 'true', paths: 'suites', upload: 'false' });
    expect(r.outputs['exit-code'], m.log).toBe('1');
    expect(readFileSync(m.summaryFile, 'utf8')).toContain('orders scarves');
    expect(m.uses.some((u) => u.uses === 'actions/upload-artifact@v4')).toBe(false);
    expect(
      m
        .ghCalls()
        .some((c) =>
          c.startsWith(
            'api --method PATCH repos/acme/shop-droid/issues/comments/777 -f body=<!-- droidcheck summary -->',
          ),
        ),
    ).toBe(true);
    expect(r.failedStep).toBe("Exit with droidcheck's code");
    expect(r.exitCode).toBe(1);
  });

  // Each job command with arguments that keep it to a few seconds against the embedded emulator.
  it.each([
    [
      'load',
      { paths: 'suites', thresholds: 'sync.count >= 5', args: '--rate 5 --duration 2s --no-default-thresholds' },
      /droidcheck load: \d+ passed, 0 failed \(exit 0\)/,
    ],
    [
      'capacity',
      { paths: 'suites', args: '--start-rate 5 --max-rate 10 --step-duration 1s --warmup 0s' },
      /droidcheck capacity: \d+ passed, 0 failed \(exit 0\)/,
    ],
    ['redteam', { args: '--attempts 1' }, /droidcheck redteam: \d+ passed, 0 failed \(exit 0\)/],
    [
      'webhook-policy',
      { args: '--probes recover --webhook-backoff 50ms --webhook-jitter 0 --quiet 1s' },
      /droidcheck webhook-policy: measured \(exit 0\)/,
    ],
  ] as const)('command: %s runs it and puts its summary.md in the job summary', async (command, inputs, headline) => {
    const m = machine({ 'suites/a.yaml': suite('scarf') });
    const r = await runAction(m, { command, upload: 'false', ...inputs });
    expect(r.outputs['exit-code'], m.log).toBe('0');
    expect(r.outputs.summary).toBe(join(m.workspace, 'reports', 'summary.md'));
    expect(readFileSync(m.summaryFile, 'utf8')).toMatch(headline);
  });

  it('command: doctor keeps its checklist as doctor.txt and doctor.md, the job summary and the comment', async () => {
    const m = machine({});
    const r = await runAction(m, { command: 'doctor', comment: 'true' });
    expect(r.outputs['exit-code'], m.log).toBe('0');
    const reports = join(m.workspace, 'reports');
    expect(r.outputs.summary).toBe(join(reports, 'doctor.md'));
    expect(readFileSync(join(reports, 'doctor.txt'), 'utf8')).toMatch(/✓ reachable .*\n[\s\S]*doctor: 0 failed/);
    const summary = readFileSync(m.summaryFile, 'utf8');
    expect(summary).toMatch(/^### droidcheck doctor \(exit 0\)\n\n````text\n[\s\S]*✓ reachable[\s\S]*\n````\n$/);
    expect(m.ghCalls().join('\n')).toContain('### droidcheck doctor (exit 0)');
  });

  it('command: compare takes the base report in baseline and the candidate in paths (default: report-dir/report.json)', async () => {
    const m = machine({ 'suites/a.yaml': suite('scarf') });
    const first = await runAction(m, { paths: 'suites', upload: 'false' });
    expect(first.outputs['exit-code'], m.log).toBe('0');
    mkdirSync(join(m.workspace, 'base'));
    copyFileSync(join(m.workspace, 'reports', 'report.json'), join(m.workspace, 'base', 'report.json'));
    writeFileSync(m.summaryFile, ''); // the next step's job summary
    const r = await runAction(m, { command: 'compare', baseline: 'base/report.json', upload: 'false' });
    expect(r.outputs['exit-code'], m.log).toBe('0');
    expect(r.outputs.summary).toBe(join(m.workspace, 'reports', 'compare.md'));
    expect(readFileSync(m.summaryFile, 'utf8')).toMatch(
      /^### droidcheck compare \(exit 0\)\n[\s\S]*no regression against the baseline/,
    );

    // A candidate that is not a report: droidcheck's exit 2, its message in compare.md.
    const bad = await runAction(m, {
      command: 'compare',
      baseline: 'base/report.json',
      paths: 'suites/a.yaml',
      upload: 'false',
      'fail-on-error': 'false',
    });
    expect(bad.outputs['exit-code']).toBe('2');
    expect(readFileSync(join(m.workspace, 'reports', 'compare.md'), 'utf8')).toMatch(
      /^### droidcheck compare \(exit 2\)\n[\s\S]*suites\/a\.yaml/,
    );
  });

  it('working-directory, config and policy: droidcheck runs in the folder, with the files given; args split as a shell does', async () => {
    // A monorepo: the droid's tests live in services/shop, its reports beside them.
    const m = machine({
      'services/shop/suites/a.yaml': suite('scarf'),
      'services/shop/ci.config.yaml': 'timeout: 30s\n',
      // A policy the answer breaks: its scenario fails, which shows the file was read.
      'services/shop/strict.policy.yaml': 'currency: THB\nforbidden: ["silk"]\n',
    });
    const r = await runAction(m, {
      'working-directory': 'services/shop',
      paths: 'suites',
      config: 'ci.config.yaml',
      policy: 'strict.policy.yaml',
      // Quotes keep a value whole, as a shell would.
      args: `--grep 'orders scarves' --threshold "sync.count >= 1"`,
      upload: 'false',
      'fail-on-error': 'false',
    });
    expect(r.outputs['report-dir'], m.log).toBe(join(m.workspace, 'services/shop/reports'));
    expect(r.outputs['exit-code'], m.log).toBe('1');
    const report = JSON.parse(readFileSync(join(m.workspace, 'services/shop/reports/report.json'), 'utf8')) as {
      policy?: { file: string; violations: number };
      settings: { grep?: string; thresholds?: string[]; timeoutMs?: number };
      thresholds: { expression: string }[];
    };
    expect(report.policy).toMatchObject({ file: 'strict.policy.yaml' });
    expect(report.policy!.violations).toBeGreaterThan(0);
    expect(report.thresholds.map((t) => t.expression)).toContain('sync.count >= 1');
    expect(m.log).toMatch(/droidcheck run: 1 requests? in /);
  });

  // Refused before droidcheck starts: an error annotation naming the input, exit-code 2. (Side by
  // side: each waits on its own child processes.)
  it.concurrent.for<[Record<string, string>, string]>([
    [{ command: 'rm' }, 'command must be run, load, capacity, redteam, webhook-policy, doctor or compare, not "rm"'],
    [
      { command: 'redteam', paths: 'scenarios' },
      'paths: droidcheck redteam reads no scenario files; leave paths empty',
    ],
    [
      { command: 'doctor', thresholds: 'ack.p99 < 100ms' },
      'thresholds: only run, load and capacity judge thresholds, not doctor',
    ],
    [
      { command: 'load', baseline: 'base/report.json' },
      'baseline: only run (--baseline) and compare take a baseline; after load, add a step with command: compare',
    ],
    [
      { command: 'webhook-policy', deliveries: 'true' },
      'deliveries: only run, load and capacity read answers from Redis, not webhook-policy',
    ],
    [
      { command: 'compare', baseline: 'a.json', 'base-url': 'https://x.example' },
      'base-url: droidcheck compare reads reports and talks to no service',
    ],
    [
      { command: 'compare' },
      'baseline: command compare needs the base report.json in baseline (and the candidate in paths)',
    ],
    [
      { command: 'compare', baseline: 'a.json', paths: 'b.json c.json' },
      'paths: command compare takes one candidate report.json, not 2 paths',
    ],
    [
      { 'public-url': 'https://tunnel.example/webhook' },
      'public-url: give receiver-port too, the local port the tunnel forwards to',
    ],
    [{ command: 'compare', baseline: 'a.json', config: 'c.yaml' }, 'config: droidcheck compare reads no config file'],
    [{ command: 'doctor', policy: 'p.yaml' }, 'policy: droidcheck doctor checks no answer against a policy'],
    [{ 'working-directory': 'nowhere' }, 'working-directory: no folder nowhere in the workspace'],
    [{ args: '--grep "buys a shirt' }, 'args: a double quote is not closed'],
    [{ args: '--rate 5 | tee x' }, 'args: "|" is shell syntax, not an argument: quote it'],
  ])(
    'refuses %j: exit-code 2 with an error annotation; fail-on-error false keeps the step green',
    async ([inputs, message], { expect }) => {
      const m = machine({});
      const r = await runAction(m, { ...inputs, 'fail-on-error': 'false', upload: 'false' });
      expect(r.outputs['exit-code'], m.log).toBe('2');
      expect(m.log).toContain(`::error::droidcheck action: ${message}`);
      expect(m.log).not.toContain('droidcheck exited');
      expect(r.failedStep).toBeUndefined();
      expect(readFileSync(m.summaryFile, 'utf8')).toContain('No summary written (exit code 2)');
      expect(m.ghCalls()).toEqual([]);
    },
  );
});
