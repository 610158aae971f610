/**
 * The workflows of docs/ci.md, as written there, run step by step on this machine
 * (./runner.ts) against `droidcheck emulate` standing in for the real service, whose answer
 * webhook is set to a URL that does not change between jobs:
 * (a) the tunnel: a stand-in `your-tunnel-client` on PATH (an HTTP forwarder from a "public" port
 *     to the receiver's, answering 502 while nothing listens behind it, as a tunnel's edge does);
 * (b) the receiver on Redis: a real redis-server and `droidcheck receive`, the job reading the
 *     stream. Every address is 127.0.0.1.
 * The docs' other Action examples are checked for inputs action.yml does not declare.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { freePort, REPO } from '../helpers/cli.js';
import { RIG_ENV, startEmulatorCli, startReceiverCli, stop, type EmulatorChild } from '../jobs/scale-rig.js';
import { type RedisServer, startRedisServer } from '../receiver/redis-server.js';
import { ACTION_USES, action, createMachine, type Machine, runWorkflow, type Step } from './runner.js';

const CI_MD = readFileSync(join(REPO, 'docs/ci.md'), 'utf8');
const yamlBlocks = [...CI_MD.matchAll(/```yaml\n([\s\S]*?)```/g)].map((b) => b[1]!);

/** The workflow of docs/ci.md with this `name:`. */
function workflow(name: string): Parameters<typeof runWorkflow>[1] {
  const found = yamlBlocks.map((b) => parse(b) as { name?: string }).filter((w) => w?.name === name);
  expect(found, `docs/ci.md: one workflow named "${name}"`).toHaveLength(1);
  return found[0] as Parameters<typeof runWorkflow>[1];
}

const SCENARIOS = {
  'scenarios/a.yaml': [
    'suite: ci',
    'scenarios:',
    '  - name: orders scarves',
    '    modes: [async, sync]',
    '    humanMessage: I want 2 silk scarves',
    '    expect:',
    '      answer: { contains: scarf }',
    '',
  ].join('\n'),
};

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
function machine(): Machine {
  const m = createMachine(SCENARIOS);
  cleanups.push(() => m.dispose());
  return m;
}
async function emulator(webhookUrl: string): Promise<EmulatorChild> {
  const e = await startEmulatorCli([webhookUrl]);
  cleanups.push(() => stop(e.cli));
  return e;
}

const receiverOf = (m: Machine) =>
  JSON.parse(readFileSync(join(m.workspace, 'reports/report.json'), 'utf8')) as {
    receiver: { received: number; matched: number; orphans: number; foreign: number };
    summary: { failed: number };
  };

describe('docs/ci.md: async answers on a hosted runner', () => {
  it('every YAML block of docs/ci.md parses, and its droidcheck Action steps use only inputs action.yml declares', () => {
    const steps: Step[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const step = node as Step;
        if (typeof step.uses === 'string' && ACTION_USES.test(step.uses)) steps.push(step);
        else Object.values(node).forEach(walk);
      }
    };
    for (const block of yamlBlocks)
      for (const doc of parseAllDocuments(block)) {
        // A block GitHub could not read is a doc bug (a `${{ }}` in a flow mapping needs quotes).
        expect(
          doc.errors.map((e) => e.message),
          block,
        ).toEqual([]);
        walk(doc.toJS());
      }
    expect(steps.length).toBeGreaterThanOrEqual(4);
    for (const step of steps)
      for (const input of Object.keys(step.with ?? {})) expect(action.inputs).toHaveProperty(input);
  });

  it('(a) a tunnel: the service posts to the public URL, the tunnel forwards to receiver-port, the answers match', async () => {
    const publicPort = await freePort();
    const receiverPort = await freePort();
    const publicUrl = `http://127.0.0.1:${publicPort}/webhook`;
    const service = await emulator(publicUrl);
    const m = machine();
    const tunnelLog = join(m.root, 'tunnel-standin.log');
    const pidFile = join(m.root, 'tunnel-standin.pid');
    writeFileSync(join(m.bin, 'your-tunnel-client'), tunnelStandIn(publicPort, tunnelLog, pidFile));
    chmodSync(join(m.bin, 'your-tunnel-client'), 0o755);
    cleanups.push(() => {
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
      } catch {
        // not started, or gone
      }
    });

    const run = await runWorkflow(m, workflow('droidcheck (tunnel)'), {
      vars: { DROID_BASE_URL: service.baseUrl, DROID_ID: '1', DROID_PUBLIC_URL: publicUrl },
      secrets: {
        DROID_API_TOKEN: RIG_ENV.DROID_API_TOKEN,
        DROID_WEBHOOK_SECRET: RIG_ENV.DROID_WEBHOOK_SECRET,
        TUNNEL_TOKEN: 'tunnel-token-0123456789',
      },
      env: { RECEIVER_PORT: String(receiverPort) }, // 8787 in the docs: a free one here
    });
    expect(run.failedStep, m.log).toBeUndefined();
    expect(run.steps.droidcheck?.outputs['exit-code'], m.log).toBe('0');
    // public-url reached droidcheck: the URL it names for the service's settings, and its checks.
    expect(m.log).toContain(`droidcheck: configure the service's answer webhook URL as ${publicUrl}\n`);
    const report = receiverOf(m);
    expect(report.summary.failed).toBe(0);
    expect(report.receiver.matched, m.log).toBe(1); // the async request
    expect(report.receiver.orphans).toBe(0);

    const forwarded = readFileSync(tunnelLog, 'utf8').split('\n');
    // The step's wait: the tunnel answered while nothing listened behind it yet.
    expect(forwarded[0]).toBe(`started --token tunnel-token-0123456789 --to http://127.0.0.1:${receiverPort}`);
    expect(forwarded[1]).toBe('GET /webhook 502');
    expect(forwarded.filter((l) => l === 'POST /webhook 200')).toHaveLength(1);
    const deliveries = await service.deliveries();
    expect(deliveries.every((d) => d.targetUrl.startsWith(publicUrl) && d.ok)).toBe(true);
  });

  it('(b) a receiver on Redis: `droidcheck receive` publishes, the job reads the stream with deliveries: true', async () => {
    const redis: RedisServer = await startRedisServer();
    cleanups.push(() => redis.dispose());
    const redisUrl = `${redis.url}/0`;
    const receiver = await startReceiverCli(redisUrl, 'droidcheck:deliveries', 'ci-receiver');
    cleanups.push(() => stop(receiver.cli));
    const service = await emulator(receiver.answerUrl);
    const m = machine();

    const run = await runWorkflow(m, workflow('droidcheck (receiver on Redis)'), {
      vars: { DROID_BASE_URL: service.baseUrl, DROID_ID: '1' },
      secrets: { DROID_API_TOKEN: RIG_ENV.DROID_API_TOKEN, DROIDCHECK_REDIS_URL: redisUrl },
    });
    expect(run.failedStep, m.log).toBeUndefined();
    expect(run.steps.droidcheck?.outputs['exit-code'], m.log).toBe('0');
    const report = receiverOf(m);
    expect(report.summary.failed).toBe(0);
    expect(report.receiver.matched, m.log).toBe(1);
    expect(report.receiver.foreign).toBe(0);
    // The job started no receiver: its log names the stream, the receiver counted the deliveries.
    expect(m.log).not.toMatch(/receiver at http/);
    expect(m.log).toContain('droidcheck:deliveries');
    expect(receiver.cli.stdout() + receiver.cli.stderr()).not.toContain(RIG_ENV.DROID_WEBHOOK_SECRET);
  });
});

/**
 * The stand-in tunnel client: listens on the "public" port and forwards each request to the
 * `--to` origin, answering 502 when nothing listens there; one line per request in `log`
 * (method, path without the query, which holds the webhook secret, and status).
 */
function tunnelStandIn(publicPort: number, log: string, pidFile: string): string {
  return `#!/usr/bin/env node
const http = require('node:http');
const fs = require('node:fs');
const args = process.argv.slice(2);
const to = new URL(args[args.indexOf('--to') + 1]);
fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
const log = (line) => fs.appendFileSync(${JSON.stringify(log)}, line + '\\n');
log('started ' + args.join(' '));
http.createServer((req, res) => {
  const path = req.url.split('?')[0];
  const up = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (upRes) => {
    log(req.method + ' ' + path + ' ' + upRes.statusCode);
    res.writeHead(upRes.statusCode, upRes.headers);
    upRes.pipe(res);
  });
  up.on('error', () => {
    log(req.method + ' ' + path + ' 502');
    res.writeHead(502).end('bad gateway: nothing listens behind the tunnel');
  });
  req.pipe(up);
}).listen(${publicPort}, '127.0.0.1');
`;
}
