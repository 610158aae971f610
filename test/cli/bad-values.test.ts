/**
 * Every command, every flag, a bad value (a user's mistake): exit 2, a message naming the flag
 * (or the file:line:col of the file given), no stack trace, never "internal error".
 *
 * The commands and their options are walked from `createProgram`, so a new flag is covered
 * automatically: it gets the empty value (`--flag ""`) at once, and this test fails until a bad
 * value of its own is listed in BAD. Boolean flags get `--flag=value`. Runs in process through
 * `runProgram` (what the binary runs), on the embedded emulator (inline) on 127.0.0.1.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import { runProgram } from '../../src/cli/run-program.js';
import type { CliContext } from '../../src/cli/shared.js';
import { sink } from '../helpers/in-process-cli.js';

interface Case {
  /** Bad values; placeholders {file} {dir} {missing} {port} {emptyDir} {badConfig} {badProfile} {badFaults} {badPolicy} {report}. */
  values: string[];
  /** Extra arguments put before the flag (the flag under test comes last and wins). */
  args?: string[];
  env?: Record<string, string>;
  /** What the message must contain instead of the flag (default: the flag's long name). */
  names?: string;
}

const TOKEN = 'a-token-long-enough-1234';

/** Bad values by `command --flag` or `--flag` (shared by every command that has it). */
const BAD: Record<string, Case> = {
  '--concurrency': { values: ['0', 'many', '1.5'] },
  '--mode': { values: ['sideways'] },
  '--tag': { values: ['no-such-tag'] },
  '--grep': { values: ['/(/', 'no scenario has this name'] },
  '--report-dir': { values: ['{file}/reports', '{file}'] },
  '--reporter': { values: ['nosuch', 'junti'] },
  '--output-file': { values: ['junit', 'nosuch=x.xml', 'junit={file}/junit.xml', 'junit={dir}'] },
  '--timeout': { values: ['5', '0s', 'soon'] },
  '--message-webhook-check': { values: ['5', '0s', 'soon'] },
  '--first-answer-timeout': { values: ['5', '0s', 'soon'] },
  '--threshold': { values: ['foo < 1', 'ack.p99 <', 'ack.p99 < 5 req/s'] },
  '--retries': { values: ['11', 'x', '-1'] },
  '--burst-gap': { values: ['300', '11m', 'soon'] },
  '--base-url': { values: ['not a url', 'ftp://example.com'] },
  '--droid-id': { values: ['abc', '0'], args: ['--base-url', 'http://127.0.0.1:9'], env: { DROID_API_TOKEN: TOKEN } },
  '--receiver-host': { values: ['192.0.2.1'] },
  '--receiver-port': { values: ['70000', 'x', '{port}'] },
  '--public-url': { values: ['notaurl'] },
  '--grace': { values: ['5', 'x'] },
  '--config': { values: ['{dir}', '{missing}', '{badConfig}'] },
  '--judge-model': { values: ['gpt-test'] },
  '--embedding-model': { values: ['embed-test'] },
  // A model with no endpoint configured (no OPENAI_BASE_URL, no OPENAI_API_KEY).
  '--simulator-model': { values: ['sim-test'] },
  '--attempts': { values: ['0', 'x', '1.5'] },
  // Any product name or canary text is valid: the empty value only.
  '--product': { values: [] },
  '--canary': { values: [] },
  '--category': { values: ['prompt-leek', 'all'] },
  '--max-success-rate': { values: ['2', 'x', '150%'] },
  '--emulator-weaknesses': { values: ['discont', ' , '] },
  'run --shard': { values: ['5/4', 'x', '0/2'] },
  'run --baseline': { values: ['{missing}', '{dir}', '{file}'] },
  '--rate': { values: ['0', 'fast'] },
  '--duration': { values: ['30', '0s'] },
  '--stages': { values: ['10s', '10s:x', 'x:10'] },
  'load --start-rate': { values: ['-1', 'x'], args: ['--stages', '1s:2'] },
  'capacity --start-rate': { values: ['0', 'x'] },
  '--weight': { values: ['x', 'no-such-scenario=2', 'greets=-1'] },
  '--seed': { values: ['-1', 'x', '1.5'] },
  '--warmup': { values: ['2', 'x'] },
  '--max-in-flight': { values: ['0', 'x'] },
  '--max-requests': { values: ['0', 'x'] },
  '--progress': { values: ['5', 'x'] },
  '--strategy': { values: ['zigzag'] },
  '--step': { values: ['0', 'x'] },
  '--max-rate': { values: ['0', 'x', '1'] },
  '--precision': { values: ['0', 'x'] },
  '--max-steps': { values: ['0', 'x'] },
  '--step-duration': { values: ['10', 'x'] },
  // Above the highest rate tried (2000 req/s by default): the search could never find it.
  '--min-capacity': { values: ['0', 'x', '5000'] },
  '--ack-p99': { values: ['100', 'x'] },
  '--answer-p99': { values: ['1', 'x'] },
  '--max-error-rate': { values: ['2', 'x', '150%'] },
  '--min-pass-rate': { values: ['2', 'x', '150%'] },
  '--tolerance': { values: ['-1', 'x'] },
  '--min-delta': { values: ['-1', 'x'] },
  '--rate-tolerance': { values: ['-1', 'x'] },
  'merge --report-dir': { values: ['{file}/merged'] },
  'merge --threshold': { values: ['foo < 1'] },
  'merge --reporter': { values: ['nosuch'] },
  'merge --output-file': { values: ['junit', 'junit={file}/j.xml'] },
  // compare's own page and Markdown: a path that cannot be a file.
  '--html': { values: ['{dir}', '{file}/compare.html'] },
  '--markdown': { values: ['{dir}', '{file}/compare.md'] },
  '--profile': { values: ['{missing}', '{dir}', '{badProfile}'] },
  '--faults': { values: ['{missing}', '{dir}', '{badFaults}'] },
  '--policy': { values: ['{missing}', '{dir}', '{badPolicy}'] },
  // A file droidcheck coverage did not write is never overwritten.
  '--scenarios': { values: ['{dir}', '{file}/gaps.yaml', '{file}'] },
  '--host': { values: ['192.0.2.1'] },
  '--port': { values: ['70000', 'x', '{port}'] },
  'emulate --droid-id': { values: ['0', 'x'] },
  '--token': { values: ['short'] },
  '--test-customer-id': { values: ['x', '0'] },
  '--webhook-url': { values: ['notaurl', 'ftp://example.com'] },
  '--webhook-secret': { values: ['short'] },
  '--message-webhook-url': { values: ['x'] },
  '--verify-token': { values: ['short'] },
  'emulate --seed': { values: ['-1', 'x'] },
  '--ack-delay': { values: ['5', 'x'] },
  '--answer-delay': { values: ['5', 'x'] },
  '--rate-limit': { values: ['0', 'x'] },
  '--degrade-above': { values: ['0', 'x', '1.5'] },
  '--webhook-attempts': { values: ['0', 'x', '21'] },
  '--webhook-backoff': { values: ['5', 'x'] },
  '--webhook-timeout': { values: ['5', '0s', 'x'] },
  '--webhook-jitter': { values: ['2', '-0.1', 'x'] },
  '--probes': { values: ['nope', 'fail,nope', ','] },
  '--quiet': { values: ['5', '0s', 'x'] },
  'webhook-policy --droid-id': {
    values: ['abc', '0'],
    args: ['--base-url', 'http://127.0.0.1:9'],
    env: { DROID_API_TOKEN: TOKEN },
  },
  '--customer': { values: ['x', '0'] },
  '--out': { values: ['{dir}', '{file}/x.yaml', 'x.txt'] },
  'import --base-url': { values: ['x'] },
  'import --droid-id': { values: ['x'], args: ['--base-url', 'http://127.0.0.1:9'] },
  '--turns': { values: ['some'] },
  'import --threshold': { values: ['2', 'x'] },
  '--suite': { values: ['   '] },
  // The fixture suite has no tags, so no value of --exclude-tag empties it: the empty value only.
  '--exclude-tag': { values: [] },
  '--sync-message': { values: ['text', 'both'] },
  '--deliveries': { values: ['notaurl', 'http://127.0.0.1:6379'] },
  '--stream': { values: ['   '] },
  '--metrics-port': { values: ['70000', 'x', '{port}'] },
  '--metrics-host': { values: ['192.0.2.1'] },
  '--metrics-linger': { values: ['5', 'x'] },
  '--otlp-endpoint': { values: ['not a url', 'ftp://collector:4318'] },
  '--otlp-protocol': { values: ['http', 'grpcc'] },
  '--trace-url': { values: ['http://jaeger:16686/trace/', 'not a url {traceId}'] },
  '--max-cost': { values: ['0', 'x', '-1'] },
  '--max-tokens': { values: ['0', 'x', '1.5'] },
  '--max-conversation-tokens': { values: ['0', 'x'] },
  '--model-price': { values: ['gpt', 'gpt=1', 'gpt=x/1', 'gpt=1/-1'] },
  'load --shard': { values: ['3/2', 'x'] },
  '--start-at': { values: ['yesterday', '2000-01-01T00:00:00Z'] },
  '--max-clock-skew': { values: ['5', 'x'] },
  '--redis': { values: ['notaurl', 'http://127.0.0.1:6379'] },
  '--max-len': { values: ['-1', 'x'] },
  '--redis-timeout': { values: ['5', 'x'] },
  '--id': { values: [] },
  'receive --host': { values: [] },
  'receive --port': { values: ['70000', 'x'] },
  // A port in use is found only after Redis answers (test/jobs/receive.test.ts has it).
  'receive --metrics-port': { values: ['70000', 'x'] },
};

/** Bad values of positional arguments, by `command <name>`; the message names the value. */
const BAD_ARGS: Record<string, string[]> = {
  'run paths': ['{missing}', '{emptyDir}'],
  'load paths': ['{missing}', '{emptyDir}'],
  'capacity paths': ['{missing}', '{emptyDir}'],
  'validate paths': ['{missing}', '{emptyDir}'],
  'compare base': ['{missing}', '{dir}', '{file}'],
  'compare current': ['{missing}', '{dir}', '{file}'],
  'merge reports': ['{missing}', '{file}'],
  'coverage report': ['{missing}', '{dir}', '{file}'],
  'init dir': ['{file}', '{file}/sub'],
};

async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = sink();
  const stderr = sink();
  const ctx: CliContext = { stdout, stderr, env: { CI: 'true', ...env }, color: false, exitCode: 0 };
  const code = await runProgram(['node', 'droidcheck', ...args], ctx);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const listing: CliContext = { stdout: sink(), stderr: sink(), env: {}, color: false, exitCode: 0 };
const commands = createProgram(listing).commands;

let dir: string;
let held: Server;
let heldPort: number;
const places: Record<string, string> = {};
/** The arguments each command needs besides the one under test (all valid). */
const context: Record<string, string[]> = {};

function fill(value: string): string {
  return value.replace(/\{(\w+)\}/g, (m, key: string) => (key === 'port' ? String(heldPort) : (places[key] ?? m)));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-bad-'));
  held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  heldPort = (held.address() as { port: number }).port;
  const suite = join(dir, 'ok.yaml');
  await writeFile(
    suite,
    'suite: ok\nscenarios:\n  - name: greets\n    modes: [sync]\n    humanMessage: Hello!\n    expect:\n      intents: { includes: greeting }\n',
  );
  Object.assign(places, {
    file: join(dir, 'plain.txt'),
    dir: join(dir, 'a-dir'),
    missing: join(dir, 'missing', 'nothing.yaml'),
    emptyDir: join(dir, 'empty'),
    badConfig: join(dir, 'bad-config.yaml'),
    badProfile: join(dir, 'bad-profile.yaml'),
    badFaults: join(dir, 'bad-faults.yaml'),
    badPolicy: join(dir, 'bad-policy.yaml'),
    report: join(dir, 'good', 'report.json'),
  });
  await writeFile(places.file!, 'not a report\n');
  await mkdir(places.dir!);
  await mkdir(places.emptyDir!);
  await writeFile(places.badConfig!, 'concurrency: 2\nconcurrancy: 4\n');
  await writeFile(places.badProfile!, 'droid: { id: 1, testCustomerId: 1 }\ncatalog: {}\n');
  await writeFile(places.badFaults!, 'requests:\n  - { endpoint: get-droid-answer, action: eror }\n');
  await writeFile(places.badPolicy!, 'currency: THB\ncatalog: []\n');
  const good = await cli(['run', suite, '--no-default-thresholds', '-r', 'json', '-o', join(dir, 'good')]);
  expect(good.code, good.stderr).toBe(0);
  const out = join(dir, 'out');
  const job = [suite, '--no-default-thresholds', '-o', out];
  Object.assign(context, {
    run: job,
    load: [...job, '--duration', '1s', '--max-requests', '2'],
    capacity: [...job, '--max-steps', '1', '--step-duration', '1s', '--warmup', '0'],
    redteam: ['--attempts', '1', '--category', 'prompt-leak', '-o', out],
    compare: [places.report!, places.report!],
    merge: [places.report!, '-o', join(dir, 'merged')],
    // The good report covered 1 of the demo shop's 8 products: the table needs the policy's prices.
    coverage: [places.report!, '--scenarios', join(dir, 'gaps.yaml')],
    import: ['--customer', '1001', '--out', join(dir, 'imported.yaml')],
    // No Redis listens there: every flag is checked before droidcheck connects.
    receive: ['--redis', 'redis://127.0.0.1:1/0'],
    init: [join(dir, 'init')],
    // One probe on short delays: a value that slipped through would still end in seconds.
    'webhook-policy': [
      '--probes',
      'fail',
      '--quiet',
      '1s',
      '--webhook-backoff',
      '100ms',
      '--webhook-timeout',
      '500ms',
      '-o',
      join(dir, 'policy'),
    ],
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) => held.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

function expectUsageError(out: { code: number; stderr: string }, names: string): void {
  expect(out.stderr).not.toContain('internal error');
  expect(out.stderr).not.toMatch(/\n\s+at /);
  expect(out.code, out.stderr).toBe(2);
  expect(out.stderr).toContain(names);
}

describe.each(commands.map((c) => [c.name(), c] as const))('droidcheck %s', (name, command) => {
  const options = command.options.filter((o) => o.long !== undefined && !o.hidden);
  const valued = options.filter((o) => o.required || o.optional);
  const booleans = options.filter((o) => !o.required && !o.optional);

  it.each(valued.map((o) => [o.long!] as const))('%s: every bad value is exit 2 naming the flag', async (flag) => {
    const entry = BAD[`${name} ${flag}`] ?? BAD[flag];
    const cases = [{ value: '', env: {}, args: [] as string[], names: flag }];
    for (const value of entry?.values ?? [])
      cases.push({ value, env: entry?.env ?? {}, args: entry?.args ?? [], names: entry?.names ?? flag });
    for (const c of cases) {
      const value = fill(c.value);
      const names = [places.badConfig, places.badProfile, places.badFaults, places.badPolicy].includes(value)
        ? `${value}:`
        : c.names;
      const out = await cli([name, ...(context[name] ?? []), ...c.args, flag, value], c.env);
      expectUsageError(out, names);
    }
    expect(entry, `list bad values of "${name} ${flag}" in BAD`).toBeDefined();
  });

  if (booleans.length > 0) {
    it.each(booleans.map((o) => [o.long!] as const))('%s=value is exit 2 naming the flag', async (flag) => {
      const out = await cli([name, ...(context[name] ?? []), `${flag}=yes`]);
      expectUsageError(out, flag);
    });
  }

  const args = command.registeredArguments.map((a) => a.name());
  if (args.length > 0) {
    it.each(args.map((a) => [a] as const))('<%s>: every bad value is exit 2 naming it', async (arg) => {
      const values = BAD_ARGS[`${name} ${arg}`];
      expect(values, `list bad values of "${name} <${arg}>" in BAD_ARGS`).toBeDefined();
      for (const raw of values ?? []) {
        const value = fill(raw);
        // The argument under test replaces its place in the command's valid context.
        const given = [...(context[name] ?? [])];
        const at = command.registeredArguments.findIndex((a) => a.name() === arg);
        if (at < given.length && !given[at]!.startsWith('-')) given[at] = value;
        else given.unshift(value);
        const out = await cli([name, ...given]);
        expectUsageError(out, raw === '{file}/sub' ? places.file! : value);
      }
    });
  }
});

// A flag of another command (hidden on this one, from the table of options) names the commands
// that have it, instead of commander's did-you-mean guess (`run --rate 5` once suggested --grace).
describe.each(commands.filter((c) => c.options.some((o) => o.hidden)).map((c) => [c.name(), c] as const))(
  'droidcheck %s: a flag of another command',
  (name, command) => {
    const hidden = command.options.filter((o) => o.hidden && o.long !== undefined);
    it.each(hidden.map((o) => [o.long!, o.required || o.optional] as const))(
      '%s says which command has it',
      async (flag, valued) => {
        const out = await cli([name, ...(context[name] ?? []), flag, ...(valued ? ['5'] : [])]);
        expectUsageError(out, `${flag} is an option of \`droidcheck `);
        expect(out.stderr).toContain(`not of \`droidcheck ${name}\``);
      },
    );
  },
);
