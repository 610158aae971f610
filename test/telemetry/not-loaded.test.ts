/**
 * Export off costs nothing (docs/telemetry.md, Overhead): a run without an OTLP endpoint loads no
 * OpenTelemetry module at all. The CLI runs with a module-resolution hook preloaded
 * (test/fixtures/telemetry/record-loads.mjs) that writes down every @opentelemetry/ module
 * resolved; the same run with export on resolves them, so the hook is seen to work.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { droidcheck } from '../helpers/cli.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';

const HOOK = fileURLToPath(new URL('../fixtures/telemetry/record-loads.mjs', import.meta.url));
const SUITE = `suite: one
scenarios:
  - name: hello
    humanMessage: Hello
    expect: { answer: { present: true } }
`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-otel-loads-'));
  await writeFile(join(dir, 'suite.yaml'), SUITE);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loadsOf(name: string, env: Record<string, string>): Promise<string[]> {
  const file = join(dir, `${name}.txt`);
  await writeFile(file, '');
  const r = await droidcheck(['run', 'suite.yaml', '-o', join(dir, name)], {
    cwd: dir,
    env: { NODE_OPTIONS: `--import=${HOOK}`, DROIDCHECK_LOADS_FILE: file, ...env },
  });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
}

describe('export off', () => {
  it('loads no OpenTelemetry module; export on loads them', async () => {
    expect(await loadsOf('off', {})).toEqual([]);
    const otlp = await startOtlpReceiver();
    try {
      const on = await loadsOf('on', { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url });
      expect(on.some((url) => url.includes('/@opentelemetry/sdk-trace/'))).toBe(true);
      expect(on.some((url) => url.includes('/@opentelemetry/exporter-trace-otlp-proto/'))).toBe(true);
      expect(
        on.some((url) => url.includes('/exporter-trace-otlp-grpc/')),
        'only the transport asked for',
      ).toBe(false);
    } finally {
      await otlp.close();
    }
  });
});
