/**
 * A GitHub Actions runner, as far as the action (action.yml) and the workflows of docs/ci.md
 * need one, on this machine: each `run:` step executed by bash in a temporary workspace with the
 * variables a runner sets (GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
 * GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_EVENT_PATH...); `${{ }}` expressions (inputs, github,
 * env, vars, secrets, steps.<id>.outputs) and `if:` conditions evaluated; a workflow's job
 * `env:` and a step's `env:` inherited by the steps below them, the action's steps included.
 * `uses:` steps other than the droidcheck action (checkout, setup-node, cache, upload-artifact)
 * are not run: their resolved inputs are recorded for the tests to assert. `gh` is a script on
 * PATH that records its arguments and answers the comment listing.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { REPO } from '../helpers/cli.js';

export interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, unknown>;
  shell?: string;
  env?: Record<string, unknown>;
  run?: string;
  'working-directory'?: string;
}
export interface ActionYaml {
  inputs: Record<string, { default?: string; description: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

/** This checkout, the action's copy the tests run (installed already). */
export const ACTION_DIR = REPO.replace(/\/$/, '');

export const action = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as ActionYaml;

/** The expression contexts a step sees. */
interface Context {
  inputs: Record<string, string>;
  github: Record<string, string>;
  env: Record<string, string>;
  vars: Record<string, string>;
  secrets: Record<string, string>;
  steps: Record<string, { outputs: Record<string, string> }>;
}

/** The value of one expression path (`inputs.x`, `steps.id.outputs.y`, `env.X`...) or a '' literal. */
function value(expr: string, ctx: Context): string {
  const e = expr.trim();
  const literal = /^'(.*)'$/.exec(e);
  if (literal) return literal[1]!;
  const [head, ...rest] = e.split('.');
  if (head === 'steps' && rest[1] === 'outputs') return ctx.steps[rest[0]!]?.outputs[rest[2]!] ?? '';
  if (head === 'inputs' || head === 'github' || head === 'env' || head === 'vars' || head === 'secrets')
    return ctx[head][rest.join('.')] ?? '';
  throw new Error(`expression not understood by this runner: ${e}`);
}

/** `&&` of `!cancelled()`, `always()`, `a == 'b'`, `a != 'b'` (implicit success() otherwise). */
function condition(cond: string | undefined, ctx: Context, failed: boolean): boolean {
  const text = (cond ?? '').replace(/^\$\{\{(.*)\}\}$/s, '$1').trim();
  const terms = text === '' ? [] : text.split('&&');
  const statusFunction = terms.some((t) => /always\(\)|cancelled\(\)|failure\(\)/.test(t));
  if (!statusFunction && failed) return false;
  return terms.every((t) => {
    const term = t.trim();
    if (term === '!cancelled()' || term === 'always()') return true;
    const m = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(term);
    if (!m) throw new Error(`condition not understood by this runner: ${term}`);
    return (value(m[1]!, ctx) === value(m[3]!, ctx)) === (m[2] === '==');
  });
}

const interpolate = (text: unknown, ctx: Context): string =>
  String(text).replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => value(e, ctx));
const interpolateAll = (map: Record<string, unknown> | undefined, ctx: Context): Record<string, string> =>
  Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, interpolate(v, ctx)]));

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

/** One job's machine: its workspace, RUNNER_TEMP, PATH additions and the files a runner keeps. */
export interface Machine {
  root: string;
  workspace: string;
  /** A directory first on PATH (the `gh` stand-in; tests add their own commands). */
  bin: string;
  summaryFile: string;
  /** Every `run:` step's output, in order, each after a `--- <step name>` line. */
  log: string;
  /** The `uses:` steps not run, with their inputs resolved. */
  uses: { uses: string; with: Record<string, string> }[];
  ghCalls(): string[];
  dispose(): void;
}

/** A fresh machine whose workspace holds `files`; `ghExistingComment`: the id the comment listing answers. */
export function createMachine(files: Record<string, string>, ghExistingComment = ''): Machine {
  const root = mkdtempSync(join(tmpdir(), 'droidcheck-action-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const ghLog = join(root, 'gh.log');
  writeFileSync(
    join(bin, 'gh'),
    `#!/usr/bin/env bash\nprintf '%s\\036' "$*" >> '${ghLog}'\nif [[ "$*" == *"--paginate"* ]]; then printf '%s' '${ghExistingComment}'; fi\n`,
  );
  chmodSync(join(bin, 'gh'), 0o755);
  writeFileSync(join(root, 'event.json'), JSON.stringify({ pull_request: { number: 42 } }));
  const summaryFile = join(root, 'step_summary.md');
  writeFileSync(summaryFile, '');
  return {
    root,
    workspace,
    bin,
    summaryFile,
    log: '',
    uses: [],
    ghCalls() {
      try {
        return readFileSync(ghLog, 'utf8').split('\x1e').slice(0, -1); // one record (RS) per call: bodies hold newlines
      } catch {
        return [];
      }
    },
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

let scripts = 0;
/** A step still running after this long is hung (ms): a hang detector, not a speed assertion. */
const STEP_HANG_MS = 120_000;

/** Runs one `run:` script; resolves its exit status and what it wrote to $GITHUB_OUTPUT. */
async function runScript(
  m: Machine,
  name: string,
  script: string,
  shellArgs: string[],
  env: Record<string, string>,
  cwd: string,
  actionPath: string,
): Promise<{ status: number; outputs: Record<string, string> }> {
  const outputFile = join(m.root, `output-${++scripts}`);
  writeFileSync(outputFile, '');
  const child = spawn('bash', [...shellArgs, '-c', script], {
    cwd,
    detached: true, // its own process group: a step past its time is ended whole
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: `${m.bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      HOME: process.env.HOME ?? m.root,
      NO_COLOR: '1',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: m.workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_ENV: join(m.root, 'env'),
      GITHUB_STEP_SUMMARY: m.summaryFile,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: join(m.root, 'event.json'),
      GITHUB_REPOSITORY: 'acme/shop-droid',
      RUNNER_OS: 'Linux',
      RUNNER_ARCH: 'X64',
      RUNNER_TEMP: m.root,
      ...env,
    },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => void (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => void (out += c.toString()));
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, STEP_HANG_MS);
  const status = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  clearTimeout(timer);
  m.log += `--- ${name}\n${out}`;
  return { status, outputs: parseOutputFile(readFileSync(outputFile, 'utf8')) };
}

export interface ActionRun {
  inputs: Record<string, string>;
  outputs: Record<string, string>;
  /** Outputs of the action's own steps, by id. */
  steps: Record<string, { outputs: Record<string, string> }>;
  failedStep: string | undefined;
  exitCode: number;
}

/**
 * Runs action.yml's steps on `m` with `inputs` over the defaults; `env`: the calling workflow's
 * job and step `env:`, seen by every step of the action. `actionPath`: the action's copy
 * (default: this checkout, installed already).
 */
export async function runAction(
  m: Machine,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  actionPath = ACTION_DIR,
): Promise<ActionRun> {
  const ctx: Context = {
    inputs: {
      ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ''])),
      'github-token': 'ghs_test_token',
      ...inputs,
    },
    github: { workspace: m.workspace, action_path: actionPath, token: 'ghs_test_token' },
    env,
    vars: {},
    secrets: {},
    steps: {},
  };
  const run: ActionRun = { inputs: ctx.inputs, outputs: {}, steps: ctx.steps, failedStep: undefined, exitCode: 0 };
  for (const step of action.runs.steps) {
    if (!condition(step.if, ctx, run.failedStep !== undefined)) continue;
    if (step.uses) {
      m.uses.push({ uses: step.uses, with: interpolateAll(step.with, ctx) });
      continue;
    }
    if (step.shell !== 'bash') throw new Error(`${step.name}: shell must be bash, not ${step.shell}`);
    const cwd = step['working-directory'] ? interpolate(step['working-directory'], ctx) : m.workspace;
    const stepEnv = { ...env, ...interpolateAll(step.env, ctx) };
    const res = await runScript(
      m,
      step.name!,
      step.run!,
      ['--noprofile', '--norc', '-eo', 'pipefail'],
      stepEnv,
      cwd,
      actionPath,
    );
    if (step.id) ctx.steps[step.id] = { outputs: res.outputs };
    if (res.status !== 0 && run.failedStep === undefined) {
      run.failedStep = step.name;
      run.exitCode = res.status;
    }
  }
  run.outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, interpolate(o.value, ctx)]));
  return run;
}

/** The `uses:` of the droidcheck action in the docs' workflows (this repository, at its major tag). */
export const ACTION_USES = /^OWNER\/droidcheck@/;

export interface WorkflowRun {
  /** Each step's outcome, by id (or name). */
  steps: Record<string, { outputs: Record<string, string>; status: number }>;
  actions: ActionRun[];
  failedStep: string | undefined;
}

/**
 * Runs the only job of a workflow on `m`, step by step: `vars`, `secrets` and `env` (over the
 * job's own `env:`) as the repository's settings would give them. The droidcheck action runs
 * through runAction; other `uses:` steps are recorded in `m.uses`.
 */
export async function runWorkflow(
  m: Machine,
  workflow: { jobs: Record<string, { env?: Record<string, unknown>; steps: Step[] }> },
  settings: { vars?: Record<string, string>; secrets?: Record<string, string>; env?: Record<string, string> },
): Promise<WorkflowRun> {
  const jobs = Object.values(workflow.jobs);
  if (jobs.length !== 1) throw new Error(`this runner runs workflows of one job, not ${jobs.length}`);
  const job = jobs[0]!;
  const ctx: Context = {
    inputs: {},
    github: { workspace: m.workspace, token: 'ghs_test_token' },
    env: {},
    vars: settings.vars ?? {},
    secrets: settings.secrets ?? {},
    steps: {},
  };
  ctx.env = { ...interpolateAll(job.env, ctx), ...settings.env };
  const result: WorkflowRun = { steps: {}, actions: [], failedStep: undefined };
  for (const step of job.steps) {
    if (!condition(step.if, ctx, result.failedStep !== undefined)) continue;
    const key = step.id ?? step.name ?? step.uses ?? 'step';
    const env = { ...ctx.env, ...interpolateAll(step.env, ctx) };
    let status = 0;
    let outputs: Record<string, string> = {};
    if (step.uses && ACTION_USES.test(step.uses)) {
      const inputs = interpolateAll(step.with, { ...ctx, env });
      const unknown = Object.keys(inputs).filter((k) => !(k in action.inputs));
      if (unknown.length > 0) throw new Error(`${key}: not inputs of action.yml: ${unknown.join(', ')}`);
      const run = await runAction(m, inputs, env);
      result.actions.push(run);
      ({ outputs } = run);
      status = run.failedStep === undefined ? 0 : run.exitCode;
    } else if (step.uses) {
      m.uses.push({ uses: step.uses, with: interpolateAll(step.with, ctx) });
    } else {
      // A step without `shell:` runs `bash -e {0}` on Linux runners.
      const res = await runScript(m, key, step.run!, ['--noprofile', '--norc', '-e'], env, m.workspace, '');
      ({ status, outputs } = res);
    }
    result.steps[key] = { outputs, status };
    ctx.steps[key] = { outputs };
    if (status !== 0 && result.failedStep === undefined) result.failedStep = key;
  }
  return result;
}
