#!/usr/bin/env node
/**
 * `npm test`: the build, the static checks (type check, lint, layering rules, unused exports) and
 * the three vitest projects (vitest.config.ts): `unit`, `timing` (files one at a time) and
 * `readback` (every report.json the others wrote, so last). Every step runs even when one before
 * it failed (the build excepted: nothing runs without it); the exit code is 1 when any failed.
 *
 * The timing project measures time, so it keeps a core to itself: on Linux with two cores or
 * more (taskset, util-linux) and no other work keeping half a core busy, it runs while the static
 * checks and the unit project beside it are confined to the other cores (the timing project
 * itself is not pinned: the scheduler keeps it off the busy cores); when it ends, the unit project
 * (every process it started) is given every core. Otherwise (a machine already busy with other
 * work, where no core is free to give the timing project; DROIDCHECK_TEST_SEQUENTIAL=0 does not
 * look), elsewhere than Linux, or with DROIDCHECK_TEST_SEQUENTIAL=1, the timing project runs
 * alone after the static checks and the unit project, which run side by side. The output of each step is printed whole when it ends,
 * then one line per step with its verdict and its wall-clock time.
 *
 * Usage: node test/run.mjs [--no-build] [--no-checks] (`npm run test:projects`: the projects only).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
/** Where the CLI runs of the tests leave their report.json for the readback project (test/helpers/cli.ts). */
const COLLECTED_REPORTS = fileURLToPath(new URL('../.droidcheck/test-reports', import.meta.url));
const args = new Set(process.argv.slice(2));
const color = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};

/** The static checks, by npm script name. */
const CHECKS = ['typecheck', 'lint', 'lint:deps', 'lint:unused'];

/** How many cores other processes keep busy, measured over `ms` (/proc/stat). */
async function busyCores(ms) {
  const sample = () => {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
    return {
      busy: user + nice + system + irq + softirq + steal,
      all: user + nice + system + idle + iowait + irq + softirq + steal,
    };
  };
  const a = sample();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = sample();
  return ((b.busy - a.busy) / Math.max(1, b.all - a.all)) * availableParallelism();
}

/**
 * CPUs for taskset's -c, or why the steps run in turn: `{ others, all }` or `{ sequential }`.
 */
async function cpuSets() {
  const cores = availableParallelism();
  if (process.env.DROIDCHECK_TEST_SEQUENTIAL === '1') return { sequential: 'DROIDCHECK_TEST_SEQUENTIAL=1' };
  if (process.platform !== 'linux' || cores < 2) return { sequential: `${cores} core(s) on ${process.platform}` };
  if (spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status !== 0)
    return { sequential: 'no taskset (util-linux)' };
  const busy = process.env.DROIDCHECK_TEST_SEQUENTIAL === '0' ? 0 : await busyCores(500);
  if (busy > 0.5) return { sequential: `other work keeps ${busy.toFixed(1)} of ${cores} cores busy` };
  const last = cores - 1;
  return { others: last === 1 ? '0' : `0-${last - 1}`, all: `0-${last}` };
}

/**
 * Runs `command` (pinned to `cpus` when given), its output kept; resolves what it printed, whether
 * it passed and how long it took. `started` sees the child at once.
 */
function step(name, command, { cpus, env = {}, started } = {}) {
  const t0 = performance.now();
  const argv = cpus ? ['taskset', '-c', cpus, ...command] : command;
  const child = spawn(argv[0], argv.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...color, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started?.(child);
  let output = '';
  child.stdout.on('data', (c) => void (output += c));
  child.stderr.on('data', (c) => void (output += c));
  return new Promise((resolve) => {
    child.on('error', (err) => resolve({ name, passed: false, ms: performance.now() - t0, output: String(err) }));
    child.on('close', (code) => resolve({ name, passed: code === 0, ms: performance.now() - t0, output }));
  });
}

/** The process `root` and every process below it (Linux /proc). */
function processTree(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // it ended meanwhile
    }
  }
  const tree = [];
  for (const queue = [root]; queue.length > 0; ) {
    const pid = queue.shift();
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Gives every thread of `root`'s process tree the CPUs `cpus` (twice: a process may start meanwhile). */
function widen(root, cpus) {
  for (let pass = 0; pass < 2; pass++)
    for (const pid of processTree(root))
      spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

/** Prints a step's output under a header line. */
function print(result) {
  process.stdout.write(`\n=== ${result.name}\n${result.output}`);
}

const vitest = (project) => [process.execPath, VITEST, 'run', '--project', project];
const npmRun = (script) => ['npm', 'run', '-s', script];
const results = [];

if (!args.has('--no-build')) {
  const build = await step('build', npmRun('build'));
  print(build);
  results.push(build);
  if (!build.passed) {
    process.stdout.write('\nbuild failed: no test runs without dist/ (npm run build)\n');
    process.exit(1);
  }
}
const checks = args.has('--no-checks') ? [] : CHECKS;

// The unit project's globalSetup empties the folder of collected reports unless told it was done:
// here, before the timing project (whose CLI runs write there too) starts beside it.
rmSync(COLLECTED_REPORTS, { recursive: true, force: true });
const unitEnv = { DROIDCHECK_TEST_REPORTS_CLEARED: '1' };

/** The static checks one after the other, each on the CPUs `cpus()` names when it starts. */
async function staticChecks(cpus = () => undefined) {
  const done = [];
  for (const check of checks) {
    const r = await step(`npm run ${check}`, npmRun(check), { cpus: cpus() });
    print(r);
    done.push(r);
  }
  return done;
}

const cpus = await cpuSets();
if (!cpus.sequential) {
  process.stdout.write(
    `\n${[...checks, 'unit'].join(', ')} on CPU ${cpus.others} beside the timing project, then on every CPU once it ended\n`,
  );
  let unit;
  let others = cpus.others;
  const timing = step('vitest --project timing', vitest('timing')).then((r) => {
    others = cpus.all;
    if (unit?.exitCode === null) widen(unit.pid, cpus.all);
    print(r);
    return r;
  });
  const checked = staticChecks(() => others);
  const unitDone = step('vitest --project unit', vitest('unit'), {
    cpus: cpus.others,
    env: unitEnv,
    started: (child) => (unit = child),
  }).then((r) => (print(r), r));
  results.push(...(await checked), await unitDone, await timing);
} else {
  process.stdout.write(`\nunit beside the static checks, then timing alone (${cpus.sequential})\n`);
  const checked = staticChecks();
  const unitDone = step('vitest --project unit', vitest('unit'), { env: unitEnv }).then((r) => (print(r), r));
  results.push(...(await checked), await unitDone);
  const timing = await step('vitest --project timing', vitest('timing'));
  print(timing);
  results.push(timing);
}
const readback = await step('vitest --project readback', vitest('readback'));
print(readback);
results.push(readback);

process.stdout.write('\n');
for (const r of results)
  process.stdout.write(`${r.passed ? 'passed' : 'FAILED'}  ${r.name}  (${(r.ms / 1000).toFixed(1)} s)\n`);
process.exit(results.every((r) => r.passed) ? 0 : 1);
