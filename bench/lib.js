/**
 * Shared helpers of the benchmarks (plain node, against the built ../dist). The emulator
 * runs in a child process (its own core), like a real target; everything on 127.0.0.1.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./emulator-child.js', import.meta.url));

/** The bench message: its answer payload is ~1.7 KB (a cart line, an address), like a real one. */
export const BENCH_MESSAGE = 'I want 2 silk scarves delivered to 12 Sukhumvit Rd, Bangkok 10110';
export const ASYNC_BODY = JSON.stringify({ humanMessage: { content: BENCH_MESSAGE, type: 'human' }, chatHistory: [] });
/** A webhook secret of the length a real one has. */
export const SECRET = 'bench-secret-0123456789abcdefghijklmnop';

/**
 * Starts the emulator in a child process. `webhookUrl`: where it delivers answers (default: a
 * sink in the child that answers 200). `execArgv`: node flags of the child (e.g. --cpu-prof).
 * Resolves { baseUrl, token, droidId, pid, stats(), close() }.
 */
export async function startEmulatorChild(options = {}, execArgv = []) {
  const child = fork(CHILD, [JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  const [info] = await once(child, 'message');
  return {
    ...info,
    pid: child.pid,
    stats: async () => {
      child.send('stats');
      const [s] = await once(child, 'message');
      return s;
    },
    close: async () => {
      child.send('close');
      await once(child, 'exit');
    },
  };
}

/** A suite of one async scenario (the bench message), as the engine takes it. */
export const scenario = (name = 'hello', humanMessage = BENCH_MESSAGE) => ({
  suite: 'bench',
  name,
  file: 'bench.yaml',
  location: { file: 'bench.yaml', line: 1, col: 1 },
  tags: [],
  modes: undefined,
  chatHistory: [],
  humanMessage,
  expect: [],
});
export const suites = () => [{ name: 'bench', file: 'bench.yaml', scenarios: [scenario()] }];

/** `--name value` as a number (or the fallback). */
export function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
}

/** `--name value` as a string (or the fallback). */
export function argString(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

/**
 * The argv (after node's own flags) of one `droidcheck load` run against the emulator child
 * `emu`: `main` (the CLI's dist/cli/main.js), the suite `path`, open model at `rate` req/s for
 * `seconds`, the receiver on `port`, reports in `reportDir`, answers waited `timeout` (a
 * duration), then `extra` flags.
 */
export function loadArgv({ main, path, rate, seconds, emu, port, reportDir, timeout = '30s', extra = [] }) {
  return [
    main,
    'load',
    path,
    '--rate',
    String(rate),
    '--duration',
    `${seconds}s`,
    '--base-url',
    emu.baseUrl,
    '--droid-id',
    String(emu.droidId),
    '--receiver-port',
    String(port),
    '--report-dir',
    reportDir,
    '--timeout',
    timeout,
    ...extra,
  ];
}

/** Prints `label: value | anchor: value | ratio`, and by how much a ratio target was missed. */
export function verdict(label, value, anchor, anchorLabel, unit = 'req/s', ratioTarget) {
  const ratio = anchor > 0 ? value / anchor : NaN;
  const line = `${label}: ${value.toFixed(0)} ${unit} | ${anchorLabel}: ${anchor.toFixed(0)} ${unit} | ratio ${ratio.toFixed(2)}`;
  const miss =
    ratioTarget !== undefined && ratio < ratioTarget
      ? `  MISSED: ${((1 - ratio / ratioTarget) * 100).toFixed(1)}% short of ${ratioTarget}x`
      : '';
  console.log(line + miss);
  return ratio;
}

/** Waits until the emulator has delivered every accepted answer (no backlog into the next run). */
export async function drained(emu, maxMs = 60_000) {
  const until = Date.now() + maxMs;
  for (;;) {
    const s = await emu.stats();
    if (s.delivered + s.deliveryFailures + s.dropped >= s.accepted || Date.now() > until) return s;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/** `median (min-max, n runs)` of a list, with `digits` decimals. */
export const spread = (xs, digits = 2) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}, ${xs.length} runs)`;

/** The box's load averages (1, 5, 15 min) and core count, for the header of a result. */
export function boxLoad() {
  const [a, b, c] = loadavg();
  let cores = '?';
  try {
    cores = String(readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?');
  } catch {}
  return `load average ${a.toFixed(2)} ${b.toFixed(2)} ${c.toFixed(2)} on ${cores} cores, node ${process.version}`;
}

const TICK_MS = 1000 / 100; // USER_HZ: Linux reports utime/stime in 1/100 s

/** CPU time (user + system, ms) another process has used so far, from /proc/<pid>/stat (10 ms resolution). */
export function cpuMsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime (fields 14, 15)
}

/** A TCP port free on 127.0.0.1 now (for a server another process must know in advance). */
export async function freePort() {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address();
  srv.close();
  await once(srv, 'close');
  return port;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
