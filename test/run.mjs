#!/usr/bin/env node
/**
 * `npm test`: the build, the static checks (type check, lint, layering rules, unused exports) and
 * the three vitest projects (vitest.config.ts): `unit`, `timing` (files one at a time) and
 * `readback` (every report.json the others wrote, so last). Every step runs even when one before
 * it failed (the build excepted: nothing runs without it); the exit code is 1 when any failed.
 *
 * The timing project measures time, so it gets the CPU whenever it wants it: on Linux with two
 * cores or more (chrt, util-linux) and no other work keeping half a core busy, it runs while the
 * static checks and the unit project beside it run under SCHED_IDLE on every core, the policy
 * that takes only the CPU time no other process wants (sched(7)): the timing files, which mostly
 * wait on their own clocks, are never kept waiting by them, and the unit project still uses all
 * the CPU the timing files leave (confined to the other cores instead, it left one core idle for
 * the timing project's minute and a half). When the timing project ends, every process of the
 * unit project goes back to the normal policy. Otherwise (a machine already busy with other work,
 * where idle time is scarce and the unit project would starve; DROIDCHECK_TEST_SEQUENTIAL=0 does
 * not look), elsewhere than Linux, or with DROIDCHECK_TEST_SEQUENTIAL=1, the timing project runs
 * alone after the static checks and the unit project, which run side by side. The output of each
 * step is printed whole when it ends, then one line per step with its verdict and its wall-clock
 * time.
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

/** Why the steps run in turn (`{ sequential }`), or `{}` when the timing project can run beside the rest. */
async function schedule() {
  const cores = availableParallelism();
  if (process.env.DROIDCHECK_TEST_SEQUENTIAL === '1') return { sequential: 'DROIDCHECK_TEST_SEQUENTIAL=1' };
  if (process.platform !== 'linux' || cores < 2) return { sequential: `${cores} core(s) on ${process.platform}` };
  if (spawnSync('chrt', ['--idle', '0', 'true'], { stdio: 'ignore' }).status !== 0)
    return { sequential: 'no chrt (util-linux)' };
  const busy = process.env.DROIDCHECK_TEST_SEQUENTIAL === '0' ? 0 : await busyCores(500);
  if (busy > 0.5) return { sequential: `other work keeps ${busy.toFixed(1)} of ${cores} cores busy` };
  return {};
}

/**
 * Runs `command` (under SCHED_IDLE when `idle`), its output kept; resolves what it printed,
 * whether it passed and how long it took. `started` sees the child at once.
 */
function step(name, command, { idle = false, env = {}, started } = {}) {
  const t0 = performance.now();
  const argv = idle ? ['chrt', '--idle', '0', ...command] : command;
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

/** Puts every thread of `root`'s process tree back under the normal policy (twice: a process may start meanwhile). */
function unidle(root) {
  for (let pass = 0; pass < 2; pass++)
    for (const pid of processTree(root))
      spawnSync('chrt', ['--all-tasks', '--other', '--pid', '0', String(pid)], { stdio: 'ignore' });
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

/** The static checks one after the other, each under SCHED_IDLE when `idle()` says so as it starts. */
async function staticChecks(idle = () => false, started = () => {}) {
  const done = [];
  for (const check of checks) {
    const r = await step(`npm run ${check}`, npmRun(check), { idle: idle(), started });
    print(r);
    done.push(r);
  }
  return done;
}

const plan = await schedule();
if (!plan.sequential) {
  process.stdout.write(
    `\n${[...checks, 'unit'].join(', ')} under SCHED_IDLE beside the timing project, then as usual once it ended\n`,
  );
  let unit;
  let check;
  let idle = true;
  const timing = step('vitest --project timing', vitest('timing')).then((r) => {
    idle = false;
    for (const child of [unit, check]) if (child?.exitCode === null) unidle(child.pid);
    print(r);
    return r;
  });
  const checked = staticChecks(
    () => idle,
    (child) => (check = child),
  );
  const unitDone = step('vitest --project unit', vitest('unit'), {
    idle: true,
    env: unitEnv,
    started: (child) => (unit = child),
  }).then((r) => (print(r), r));
  results.push(...(await checked), await unitDone, await timing);
} else {
  process.stdout.write(`\nunit beside the static checks, then timing alone (${plan.sequential})\n`);
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
for (const r of results) {
  process.stdout.write(`${r.passed ? 'passed' : 'FAILED'}  ${r.name}  (${(r.ms / 1000).toFixed(1)} s)\n`);
  // vitest's "FAIL" lines name the failed files and tests, here in the last lines a CI log shows.
  const failed = r.passed ? [] : r.output.replace(/\x1b\[[0-9;]*m/g, '').match(/^ *FAIL .*$/gm);
  for (const line of new Set(failed ?? [])) process.stdout.write(`  ${line.trim()}\n`);
}
process.exit(results.every((r) => r.passed) ? 0 : 1);
