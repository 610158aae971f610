#!/usr/bin/env node
/**
 * `npm test`: the build, the static checks (type check, lint, layering rules, unused exports) and
 * the three vitest projects (vitest.config.ts): `unit`, `timing` (files one at a time) and
 * `readback` (every report.json the others wrote, so last). Every step runs even when one before
 * it failed (the build excepted: nothing runs without it); the exit code is 1 when any failed.
 *
 * The timing project measures time, so it comes first for the CPU: on Linux with two cores or
 * more and no other work keeping half a core busy, it runs while the static checks and the unit
 * project beside it run at nice 10 on every core: a nice-0 process takes ~90 % of a core they
 * contend for, and a timer of the timing files fired no later beside four busy loops at nice 10
 * than on an idle machine (p99 3.8 ms against 3.9 ms), while the unit project still uses all the
 * CPU the timing files leave. Nice, not SCHED_IDLE (sched(7)): a SCHED_IDLE process runs only
 * when no other wants the core, so a 10 ms timer of the unit project beside two busy loops of
 * another session fired up to 1.3 s late (at nice 10: 6 ms; bench/test-scheduling.js), enough
 * to fail a unit test's real-time window (a burst's 300 ms gap against a 1 s answer) at random
 * on a shared machine. When the timing project ends, every thread of the unit project goes back
 * to nice 0 (where the user may: root, or CAP_SYS_NICE; elsewhere it stays at 10, with no
 * process of this run left to yield to). Otherwise (a machine already busy with other work; DROIDCHECK_TEST_SEQUENTIAL=0 does
 * not look), elsewhere than Linux, or with DROIDCHECK_TEST_SEQUENTIAL=1, the timing project runs
 * alone after the static checks and the unit project, which run side by side. The output of each
 * step is printed whole when it ends, then one line per step with its verdict and its wall-clock
 * time.
 *
 * Usage: node test/run.mjs [--no-build] [--no-checks] (`npm run test:projects`: the projects only).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
/** Where the CLI runs of the tests leave their report.json for the readback project (test/helpers/cli.ts). */
const COLLECTED_REPORTS = fileURLToPath(new URL('../.droidcheck/test-reports', import.meta.url));
const args = new Set(process.argv.slice(2));
const color = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};

/** The static checks, by npm script name. */
const CHECKS = ['typecheck', 'lint', 'lint:deps', 'lint:unused'];
/** The nice value of the steps beside the timing project (see above). */
const NICE = 10;

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
  if (spawnSync('nice', ['-n', String(NICE), 'true'], { stdio: 'ignore' }).status !== 0)
    return { sequential: 'no nice (coreutils)' };
  const busy = process.env.DROIDCHECK_TEST_SEQUENTIAL === '0' ? 0 : await busyCores(500);
  if (busy > 0.5) return { sequential: `other work keeps ${busy.toFixed(1)} of ${cores} cores busy` };
  return {};
}

/**
 * Runs `command` (at nice 10 when `idle`), its output kept; resolves what it printed,
 * whether it passed and how long it took. `started` sees the child at once.
 */
function step(name, command, { idle = false, env = {}, started } = {}) {
  const t0 = performance.now();
  const argv = idle ? ['nice', '-n', String(NICE), ...command] : command;
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

/**
 * Puts every thread of `root`'s process tree back at nice 0 (twice: a process may start
 * meanwhile). A nice value is a thread's on Linux (setpriority(2)): each one is set.
 */
function unidle(root) {
  for (let pass = 0; pass < 2; pass++) {
    const threads = processTree(root).flatMap((pid) => {
      try {
        return readdirSync(`/proc/${pid}/task`);
      } catch {
        return []; // it ended meanwhile
      }
    });
    for (const tid of threads) {
      try {
        setPriority(Number(tid), 0);
      } catch {
        // it ended meanwhile, or this user may not raise a priority (EACCES)
      }
    }
  }
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

/** The static checks one after the other, each at nice 10 when `idle()` says so as it starts. */
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
    `\n${[...checks, 'unit'].join(', ')} at nice 10 beside the timing project, then at 0 once it ended\n`,
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
