/**
 * The GitHub Action (action.yml at the repository root), run as a runner would run it: each
 * `run:` step's script executed by bash in a temporary workspace, with the variables a runner
 * sets (GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH, RUNNER_TEMP,
 * GITHUB_EVENT_PATH...), `${{ }}` expressions and `if:` conditions evaluated from the inputs
 * and the steps' outputs. `uses:` steps (setup-node, upload-artifact) are not run: their inputs
 * are asserted. `gh` is a script on PATH that records its arguments and answers the comment
 * listing. The droidcheck it runs is this checkout's (already installed: the install step's
 * "installed" branch), against the embedded emulator.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO } from '../helpers/cli.js';

interface Step {
  name: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
  'working-directory'?: string;
}
interface ActionYaml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as ActionYaml;

interface Context {
  inputs: Record<string, string>;
  steps: Record<string, { outputs: Record<string, string>; outcome: 'success' | 'failure' | 'skipped' }>;
  github: Record<string, string>;
}

/** The value of one expression path (`inputs.x`, `steps.id.outputs.y`, `github.workspace`) or a '' literal. */
function value(expr: string, ctx: Context): string {
  const e = expr.trim();
  const literal = /^'(.*)'$/.exec(e);
  if (literal) return literal[1]!;
  const parts = e.split('.');
  if (parts[0] === 'inputs') return ctx.inputs[parts[1]!] ?? '';
  if (parts[0] === 'github') return ctx.github[parts[1]!] ?? '';
  if (parts[0] === 'steps' && parts[2] === 'outputs') return ctx.steps[parts[1]!]?.outputs[parts[3]!] ?? '';
  throw new Error(`expression not understood by this test: ${e}`);
}

/** The `if:` conditions action.yml uses: `&&` of `!cancelled()`, `a == 'b'`, `a != 'b'` (implicit success()). */
function condition(cond: string | undefined, ctx: Context, failed: boolean): boolean {
  const text = (cond ?? '').replace(/^\$\{\{(.*)\}\}$/s, '$1').trim();
  const terms = text === '' ? [] : text.split('&&');
  const statusFunction = terms.some((t) => /always\(\)|cancelled\(\)|failure\(\)/.test(t));
  if (!statusFunction && failed) return false;
  return terms.every((t) => {
    const term = t.trim();
    if (term === '!cancelled()' || term === 'always()') return true;
    const m = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(term);
    if (!m) throw new Error(`condition not understood by this test: ${term}`);
    return (value(m[1]!, ctx) === value(m[3]!, ctx)) === (m[2] === '==');
  });
}

const interpolate = (text: string, ctx: Context): string =>
  text.replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => value(e, ctx));

/** key=value and key<<DELIM ... DELIM lines of a $GITHUB_OUTPUT file. */
function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const body: string[] = [];
      while (++i < lines.length && lines[i] !== heredoc[2]) body.push(lines[i]!);
      out[heredoc[1]!] = body.join('\n');
    } else if (line.includes('=')) out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return out;
}

interface ActionRun {
  ctx: Context;
  outputs: Record<string, string>;
  summary: string;
  log: string;
  ghCalls: string[];
  uses: { step: Step; with: Record<string, string> }[];
  failedStep: string | undefined;
  exitCode: number;
}

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** Runs action.yml's steps in a fresh workspace holding `files`, with `inputs` over the defaults. */
function runAction(inputs: Record<string, string>, files: Record<string, string>, ghExistingComment = ''): ActionRun {
  const root = mkdtempSync(join(tmpdir(), 'droidcheck-action-'));
  roots.push(root);
  const workspace = join(root, 'workspace');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const ghLog = join(root, 'gh.log');
  // gh: records each call; the comment listing answers the id of an existing droidcheck comment (or nothing).
  writeFileSync(
    join(bin, 'gh'),
    `#!/usr/bin/env bash\nprintf '%s\\036' "$*" >> '${ghLog}'\nif [[ "$*" == *"--paginate"* ]]; then printf '%s' '${ghExistingComment}'; fi\n`,
  );
  chmodSync(join(bin, 'gh'), 0o755);
  const event = join(root, 'event.json');
  writeFileSync(event, JSON.stringify({ pull_request: { number: 42 } }));
  const summaryFile = join(root, 'step_summary.md');
  writeFileSync(summaryFile, '');
  const ctx: Context = {
    inputs: {
      ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ''])),
      'github-token': 'ghs_test_token',
      ...inputs,
    },
    steps: {},
    github: { workspace, action_path: REPO, token: 'ghs_test_token' },
  };
  const run: ActionRun = {
    ctx,
    outputs: {},
    summary: '',
    log: '',
    ghCalls: [],
    uses: [],
    failedStep: undefined,
    exitCode: 0,
  };
  let failed = false;
  for (const [i, step] of action.runs.steps.entries()) {
    if (!condition(step.if, ctx, failed)) {
      if (step.id) ctx.steps[step.id] = { outputs: {}, outcome: 'skipped' };
      continue;
    }
    if (step.uses) {
      run.uses.push({
        step,
        with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(String(v), ctx)])),
      });
      continue;
    }
    const outputFile = join(root, `output-${i}`);
    writeFileSync(outputFile, '');
    const env: Record<string, string> = {
      PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      HOME: process.env.HOME ?? root,
      NO_COLOR: '1',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_ENV: join(root, 'env'),
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ACTION_PATH: REPO,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: 'acme/shop-droid',
      RUNNER_TEMP: root,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(String(v), ctx)])),
    };
    expect(step.shell, `${step.name}: shell`).toBe('bash');
    const cwd = step['working-directory'] ? interpolate(step['working-directory'], ctx) : workspace;
    const res = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
      cwd,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    run.log += `--- ${step.name}\n${res.stdout}${res.stderr}`;
    ctx.steps[step.id ?? `step${i}`] = {
      outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
      outcome: res.status === 0 ? 'success' : 'failure',
    };
    if (res.status !== 0 && !failed) {
      failed = true;
      run.failedStep = step.name;
      run.exitCode = res.status ?? -1;
    }
  }
  run.outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, interpolate(o.value, ctx)]));
  run.summary = readFileSync(summaryFile, 'utf8');
  try {
    run.ghCalls = readFileSync(ghLog, 'utf8').split('\x1e').slice(0, -1); // one record (RS) per call: bodies hold newlines
  } catch {
    run.ghCalls = [];
  }
  return run;
}

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
        'thresholds',
        'baseline',
        'comment',
        'report-dir',
      ]),
    );
  });

  it('runs droidcheck, puts summary.md in the job summary, sets exit-code 0, uploads the reports and comments on the pull request', () => {
    const r = runAction(
      { comment: 'true', paths: 'suites', thresholds: 'sync.p50 < 180s\n  sync.max < 180s' },
      { 'suites/a.yaml': suite('scarf') },
    );
    expect(r.failedStep, r.log).toBeUndefined();
    expect(r.outputs['exit-code'], r.log).toBe('0');
    const reportDir = join(r.ctx.github.workspace!, 'reports');
    expect(r.outputs['report-dir']).toBe(reportDir);
    expect(r.outputs.summary).toBe(join(reportDir, 'summary.md'));
    const md = readFileSync(join(reportDir, 'summary.md'), 'utf8');
    expect(md).toMatch(/^## .*droidcheck run: 1 passed, 0 failed \(exit 0\)$/m);
    // The thresholds input, one per line, reached droidcheck.
    expect(md).toMatch(/sync\.p50 < 180/);
    // In the job summary once (droidcheck's own append is turned off for the run step).
    expect(r.summary.trim()).toBe(md.trim());
    expect(r.log).toMatch(/droidcheck \S+ on Node\.js v\d+/);
    // uses: steps, with their inputs resolved.
    const setup = r.uses.find((u) => u.step.uses === 'actions/setup-node@v4');
    expect(setup?.with).toEqual({ 'node-version': 'lts/*' });
    const upload = r.uses.find((u) => u.step.uses === 'actions/upload-artifact@v4');
    expect(upload?.with).toEqual({ name: 'droidcheck-reports', path: reportDir, 'if-no-files-found': 'warn' });
    // gh: the listing of comments, then a new comment whose body is the marker and summary.md.
    expect(r.ghCalls[0]).toContain('api repos/acme/shop-droid/issues/42/comments --paginate');
    expect(r.ghCalls[1]).toMatch(
      /^api --method POST repos\/acme\/shop-droid\/issues\/42\/comments -f body=<!-- droidcheck summary -->\n/,
    );
    expect(r.ghCalls.join('\n')).toContain('droidcheck run: 1 passed, 0 failed (exit 0)');
  }, 90_000);

  it('an expectation that fails: exit-code 1, the summary still written, the comment edited in place, the step failed with 1', () => {
    const r = runAction(
      { comment: 'true', paths: 'suites', upload: 'false' },
      { 'suites/a.yaml': suite('zebra-unicorn') },
      '777',
    );
    expect(r.outputs['exit-code'], r.log).toBe('1');
    expect(r.summary).toContain('orders scarves');
    expect(r.uses.some((u) => u.step.uses === 'actions/upload-artifact@v4')).toBe(false);
    expect(
      r.ghCalls.some((c) =>
        c.startsWith(
          'api --method PATCH repos/acme/shop-droid/issues/comments/777 -f body=<!-- droidcheck summary -->',
        ),
      ),
    ).toBe(true);
    expect(r.failedStep).toBe("Exit with droidcheck's code");
    expect(r.exitCode).toBe(1);
  }, 90_000);

  it('a command the action does not run is exit-code 2 with an error annotation; fail-on-error false keeps the step green', () => {
    const r = runAction({ command: 'rm', 'fail-on-error': 'false' }, { 'scenarios/a.yaml': suite('scarf') });
    expect(r.outputs['exit-code']).toBe('2');
    expect(r.log).toContain('::error::droidcheck action: command must be run, load or redteam, not "rm"');
    expect(r.failedStep).toBeUndefined();
    expect(r.summary).toContain('No summary.md');
    expect(r.ghCalls).toEqual([]);
  });
});
