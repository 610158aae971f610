/**
 * How fast a wiring mistake stops a run (src/receiver/wiring.ts, src/runner/wiring-stop.ts):
 * the emulator posts every answer webhook with a wrong `?secret=`, the run keeps the default
 * 180 s answer deadline. Before the stop, it waited that deadline out (about 181 s, exit 1);
 * now it ends within 10 s of being ready to send, exit 2. Timed from the CLI's line that the
 * target is open (the CLI's own start, seconds on a busy machine, is not the product's), to its
 * exit; and by the report's duration (first send to the stop, on the CLI's clock).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index.js';
import { freePort, startCli, until } from '../helpers/cli.js';
import { HANG_MS } from '../helpers/hang.js';

const TOKEN = 'tok_wiring_timing_0123456789abcdefghijk';
const SECRET = 'wiring-timing-right-0123456789abcdefghij';
const WRONG = 'wiring-timing-WRONG-9876543210zyxwvutsr';

// A run that waits out the 180 s answer deadline (no stop) must fail: the shared hang bound is below it.
if (HANG_MS >= 180_000) throw new Error('these tests need HANG_MS below the 180 s answer deadline');

describe('a run whose every answer webhook has a wrong secret', () => {
  it('ends within 10 s of being ready to send (exit 2), not after the 180 s deadline', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-wiring-timing-'));
    const port = await freePort();
    const emulator = await createEmulator({
      token: TOKEN,
      webhookUrl: `http://127.0.0.1:${port}/webhook`,
      webhookSecret: WRONG,
    });
    try {
      const url = await emulator.listen();
      const suite = join(dir, 'async.yaml');
      await writeFile(suite, 'suite: W\nscenarios:\n  - name: hello\n    modes: [async]\n    humanMessage: Hello\n');
      const out = join(dir, 'out');
      const cli = startCli(
        [
          'run',
          suite,
          '--base-url',
          url,
          '--droid-id',
          String(emulator.droidId),
          '--receiver-port',
          String(port),
        ].concat(['--no-warm-up', '--reporter', 'console', '--reporter', 'json', '-o', out]),
        { CI: 'true', DROID_API_TOKEN: TOKEN, DROID_WEBHOOK_SECRET: SECRET },
      );
      const exited = cli.exited(HANG_MS);
      await until(
        () => cli.stderr().includes('network round trip') || cli.child.exitCode !== null,
        'the target to open',
      );
      const ready = performance.now();
      const code = await exited;
      const afterReadyMs = performance.now() - ready;
      expect(code, cli.stderr()).toBe(2);
      expect(cli.stderr()).toContain('DROID_WEBHOOK_SECRET');
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
        exitCode: number;
        durationMs: number;
      };
      expect(report.exitCode).toBe(2);
      expect(report.durationMs).toBeLessThan(10_000);
      expect(afterReadyMs).toBeLessThan(10_000);
    } finally {
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
