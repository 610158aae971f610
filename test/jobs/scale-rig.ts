/**
 * The real parts of a sharded run for the tests (docs/scale.md): `droidcheck receive` and
 * `droidcheck emulate` as child processes of the build (`npm run build` first), each waited for
 * until it prints its URLs, plus the emulator's own view (stats, delivery log) over HTTP. A real
 * redis-server comes from test/receiver/redis-server.ts.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import type { ReportDocument } from '../../src/report/index.js';
import type { RequestRecord } from '../../src/runner/index.js';
import { startCli, until, type CliChild } from '../helpers/cli.js';

/** Secrets of the rig (at least 8 characters, as the configuration requires). */
export const RIG_ENV = {
  DROID_WEBHOOK_SECRET: 'whsec-scale-0123456789abcdefghijkl',
  DROID_API_TOKEN: 'tok-scale-0123456789abcdefghijkl',
  CI: 'true',
};

export interface ReceiverChild {
  cli: CliChild;
  answerUrl: string;
  healthUrl: string;
  metricsUrl: string | undefined;
  /** How long the child took to print its URLs, ms: what starting a CLI costs on this machine now. */
  startMs: number;
}

/** `droidcheck receive --port 0`; resolves when it printed its URLs. */
export async function startReceiverCli(
  redisUrl: string,
  stream: string,
  id: string,
  extra: string[] = [],
): Promise<ReceiverChild> {
  const t0 = performance.now();
  const cli = startCli(
    ['receive', '--redis', redisUrl, '--stream', stream, '--port', '0', '--id', id, ...extra],
    RIG_ENV,
  );
  await until(() => /Press Ctrl\+C/.test(cli.stdout()) || cli.child.exitCode !== null, `receiver ${id} to start`);
  if (cli.child.exitCode !== null) throw new Error(`receiver ${id} exited ${cli.child.exitCode}: ${cli.stderr()}`);
  const url = (label: string): string | undefined => new RegExp(`${label}:\\s+(\\S+)`).exec(cli.stdout())?.[1];
  return {
    cli,
    answerUrl: url('answer webhook')!,
    healthUrl: url('health')!,
    metricsUrl: url('metrics'),
    startMs: performance.now() - t0,
  };
}

export interface EmulatorChild {
  cli: CliChild;
  baseUrl: string;
  /** How long the child took to listen, ms (as ReceiverChild.startMs). */
  startMs: number;
  /** GET /__emulator/stats. */
  stats(): Promise<{
    accepted: number;
    delivered: number;
    deliveryAttempts: number;
    attemptFailures: number;
    deliveryFailures: number;
    retries: number;
  }>;
  /** The delivery log (debug page as JSON): every attempt with its target URL and status. */
  deliveries(): Promise<
    { kind: string; requestId: string; attempt: number; targetUrl: string; ok: boolean; status: number | null }[]
  >;
}

/** `droidcheck emulate` with these answer-webhook URLs (taken in turn); resolves when it listens. */
export async function startEmulatorCli(webhookUrls: string[], extra: string[] = []): Promise<EmulatorChild> {
  const t0 = performance.now();
  const cli = startCli(
    ['emulate', '--port', '0', ...webhookUrls.flatMap((u) => ['--webhook-url', u]), ...extra],
    RIG_ENV,
  );
  await until(() => /Press Ctrl\+C/.test(cli.stdout()) || cli.child.exitCode !== null, 'the emulator to start');
  if (cli.child.exitCode !== null) throw new Error(`emulator exited ${cli.child.exitCode}: ${cli.stderr()}`);
  const baseUrl = /listening at (\S+)/.exec(cli.stdout())![1]!;
  const get = async <T>(path: string): Promise<T> => {
    const res = await request(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${RIG_ENV.DROID_API_TOKEN}` } });
    if (res.statusCode !== 200) throw new Error(`${path}: HTTP ${res.statusCode} ${await res.body.text()}`);
    return (await res.body.json()) as T;
  };
  return {
    cli,
    baseUrl,
    startMs: performance.now() - t0,
    stats: () => get('/__emulator/stats'),
    deliveries: async () =>
      (
        await get<{ deliveries: Awaited<ReturnType<EmulatorChild['deliveries']>> }>(
          '/droids/1/debug/webhooks?format=json&kind=answer',
        )
      ).deliveries,
  };
}

/** Stops a child politely (SIGTERM) and resolves its exit code; SIGKILL after HANG_MS (helpers/hang.ts). */
export async function stop(cli: CliChild): Promise<number | NodeJS.Signals> {
  if (cli.child.exitCode !== null) return cli.child.exitCode;
  cli.child.kill('SIGTERM');
  return cli.exited();
}

export async function readReport(path: string): Promise<ReportDocument> {
  return JSON.parse(await readFile(path, 'utf8')) as ReportDocument;
}

export async function readRecords(path: string): Promise<RequestRecord[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RequestRecord);
}

/** The args of `droidcheck load` against the rig's emulator reading the stream. */
export function shardArgs(o: {
  baseUrl: string;
  redisUrl: string;
  stream: string;
  out: string;
  rate: number;
  duration: string;
  shard?: string;
  startAt?: string;
}): string[] {
  return [
    'load',
    'scenarios/contacts.yaml',
    'scenarios/purchases.yaml',
    '--mode',
    'async',
    '--rate',
    String(o.rate),
    '--duration',
    o.duration,
    '--timeout',
    '20s',
    '--base-url',
    o.baseUrl,
    '--droid-id',
    '1',
    '--deliveries',
    o.redisUrl,
    '--stream',
    o.stream,
    ...(o.shard ? ['--shard', o.shard] : []),
    ...(o.startAt ? ['--start-at', o.startAt] : []),
    '-o',
    o.out,
    '-r',
    'json',
    '-r',
    'ndjson',
    '--no-default-thresholds',
    '--no-warm-up',
  ];
}
