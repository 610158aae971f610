/**
 * A real redis-server (/usr/bin/redis-server) for tests: 127.0.0.1, a port from freePort() (never
 * one a port-0 bind elsewhere could take before redis binds it, nor after a stop), no persistence
 * (`--save '' --appendonly no`), in a temporary directory. stop() ends it (SIGTERM, then SIGKILL
 * after 5 s) and removes the directory; start() brings it back on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/cli.js';
import { HANG_MS } from '../helpers/hang.js';

const REDIS_SERVER = '/usr/bin/redis-server';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** (Re)starts the server on the same port; resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops the server; resolves when the process has exited. */
  stop(): Promise<void>;
  /** stop() and remove the directory. */
  dispose(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'droidcheck-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async (): Promise<void> => {
    const proc = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start on port ${port}: ${out}`)), HANG_MS);
      proc.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${out}`));
      });
    });
  };

  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (proc === undefined || proc.exitCode !== null) return;
    const kill = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    proc.kill('SIGTERM');
    await exited;
    clearTimeout(kill);
  };

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
