/**
 * The user's mistakes that only the operating system finds (exit 2 with a fix, never a
 * stack trace), through the CLI (runProgram, what the binary runs, in process): a port in use,
 * an address this machine lacks, a file where a folder is needed, a typo in a fault profile. Each is exit 2 with the flag and the value named, never
 * "internal error" (exit 70) and never a stack trace.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliExit } from '../helpers/cli.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';

let dir: string;
let held: Server;
let port: number;
let suite: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-os-'));
  held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  port = (held.address() as { port: number }).port;
  suite = join(dir, 'ok.yaml');
  await writeFile(suite, 'suite: ok\nscenarios:\n  - name: greets\n    humanMessage: Hello!\n');
});

afterAll(async () => {
  await new Promise<void>((resolve) => held.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

function expectMistake(out: CliExit, ...parts: string[]): void {
  expect(out.stderr).not.toContain('internal error');
  expect(out.stderr).not.toMatch(/\n\s+at /);
  expect(out.code, out.stderr).toBe(2);
  for (const part of parts) expect(out.stderr).toContain(part);
}

describe('mistakes the operating system finds are exit 2, naming the flag', () => {
  it('run --receiver-port in use (EADDRINUSE)', async () => {
    const out = await cli(['run', suite, '--receiver-port', String(port), '-o', join(dir, 'r1')]);
    expectMistake(out, `--receiver-port ${port}: the port is already in use`, 'choose another port');
  });

  it('run --receiver-host this machine does not have (EADDRNOTAVAIL)', async () => {
    const out = await cli(['run', suite, '--receiver-host', '192.0.2.1', '-o', join(dir, 'r2')]);
    expectMistake(out, '--receiver-host 192.0.2.1: this machine has no such address');
  });

  it('emulate --port in use (EADDRINUSE)', async () => {
    const out = await cli(['emulate', '--port', String(port)]);
    expectMistake(out, `--port ${port}: the port is already in use`);
  });

  it('emulate --faults with a typo: file:line:col and a did-you-mean, like --profile', async () => {
    const faults = join(dir, 'faults.yaml');
    await writeFile(faults, 'seed: 7\nrequests:\n  - { endpoint: get-droid-answer, action: error, stauts: 503 }\n');
    const out = await cli(['emulate', '--faults', faults]);
    expectMistake(out, `${faults}:3:50: requests.0: unknown key "stauts" — did you mean "status"?`);
  });

  it('init into a file (ENOTDIR) writes nothing and names the directory', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'x');
    const out = await cli(['init', join(file, 'project')]);
    expectMistake(out, `init ${join(file, 'project')}: cannot write (ENOTDIR)`);
  });

  it('run --report-dir under a file is refused before anything is sent', async () => {
    const file = join(dir, 'b-file');
    await writeFile(file, 'x');
    const out = await cli(['run', suite, '--report-dir', join(file, 'reports')]);
    expectMistake(out, `--report-dir ${join(file, 'reports')}`);
    expect(out.stderr).not.toContain('embedded emulator at');
  });
});
