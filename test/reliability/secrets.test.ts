/**
 * Secrets (never in a report or a log): a whole suite runs through the real CLI with known token
 * and webhook secret values, some of which land on purpose in messages, answers and expectation
 * failures; then every file in the report directory, stdout and stderr are searched for them (raw
 * and URL-encoded). Also: the one redactor of src/redact.ts, unit by unit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index.js';
import { createRedactor, redactValue, REDACTED } from '../../src/redact.js';
import { freePort, startCli } from '../helpers/cli.js';

const TOKEN = 'tok_Secret+Token/0123456789abcdefghijKLMN';
const SECRET = 'whsec Secret&value=0123456789abcdefghij';
const FORMS = [
  TOKEN,
  SECRET,
  encodeURIComponent(TOKEN),
  encodeURIComponent(SECRET),
  encodeURIComponent(SECRET).replace(/%20/g, '+'),
  SECRET.replace(/&/g, '&amp;'), // as HTML and XML reports would escape it
];

function leaks(text: string): string[] {
  return FORMS.filter((f) => text.includes(f));
}

describe('redactor (src/redact.ts)', () => {
  const redact = createRedactor([TOKEN, SECRET, undefined, null, '', 'abc']);

  it('replaces raw, URL-encoded, form-encoded and JSON-escaped forms', () => {
    for (const f of FORMS.slice(0, 5)) expect(redact(`a ${f} b ${f}`)).toBe(`a ${REDACTED} b ${REDACTED}`);
    expect(redact(JSON.stringify({ s: `x"${SECRET}` }))).not.toContain(SECRET);
    const lowerHex = encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
    expect(redact(`?secret=${lowerHex}`)).toBe(`?secret=${REDACTED}`);
  });

  it('ignores short secrets and leaves other text alone', () => {
    expect(redact('abc is not redacted')).toBe('abc is not redacted');
    expect(createRedactor([]).active).toBe(false);
  });

  it('redacts whole tokens only: a secret inside a longer word is not a match, and booleans stay', () => {
    const r = createRedactor(['expected1']);
    expect(r('Unexpected1 token')).toBe('Unexpected1 token');
    expect(r('got expected1, "expected1"')).toBe(`got ${REDACTED}, "${REDACTED}"`);
    expect(redactValue({ webhookSecretSet: true, n: 3 }, r)).toEqual({ webhookSecretSet: true, n: 3 });
  });

  it('redactValue walks objects, arrays, keys and errors, without changing the input', () => {
    const input = { a: [TOKEN, { [SECRET]: `x ${TOKEN}` }], n: 1, e: new Error(`bad ${SECRET}`), d: null };
    const out = redactValue(input, redact);
    expect(JSON.stringify(out)).not.toContain(TOKEN);
    expect(JSON.stringify(out)).not.toContain('Secret&value');
    expect(input.a[0]).toBe(TOKEN);
    const cyclic: Record<string, unknown> = { s: SECRET };
    cyclic.self = cyclic;
    expect(redactValue(cyclic, redact)).toEqual({ s: REDACTED, self: '[CYCLE]' });
  });
});

describe('no secret in any output of a whole run', () => {
  it('reports (json, junit, html, markdown, ndjson), console, stderr hold neither token nor secret', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-secrets-'));
    const port = await freePort();
    const emulator = await createEmulator({
      token: TOKEN,
      webhookUrl: `http://127.0.0.1:${port}/webhook`,
      webhookSecret: SECRET,
    });
    try {
      const baseUrl = await emulator.listen();
      const suite = join(dir, 'secrets.yaml');
      await writeFile(
        suite,
        [
          'suite: secrets',
          'scenarios:',
          '  - name: plain hello',
          '    humanMessage: Hello, do you have silk scarves?',
          '  - name: a message that carries the token',
          `    humanMessage: "My name is ${TOKEN} and my email is a@b.co"`,
          '    expect:',
          `      answer: { contains: "${SECRET}" }`,
          '  - name: an expectation that names the token',
          '    humanMessage: Hi',
          '    expect:',
          `      customerInsight.contact_info.name: "${TOKEN}"`,
          '',
        ].join('\n'),
      );
      const reportDir = join(dir, 'reports');
      const cli = startCli(
        [
          'run',
          suite,
          '--report-dir',
          reportDir,
          '--base-url',
          baseUrl,
          '--droid-id',
          '1',
          '--receiver-port',
          String(port),
          '--timeout',
          '10s',
          '--no-warm-up',
          '--no-default-thresholds',
        ],
        { DROID_API_TOKEN: TOKEN, DROID_WEBHOOK_SECRET: SECRET },
      );
      const code = await cli.exited();
      expect(code, cli.stderr()).toBe(1); // expectations failed, on purpose
      const files = readdirSync(reportDir);
      expect(files).toEqual(
        expect.arrayContaining(['report.json', 'junit.xml', 'report.html', 'summary.md', 'results.ndjson']),
      );
      const outputs: [string, string][] = [
        ['stdout', cli.stdout()],
        ['stderr', cli.stderr()],
        ...files.map((f): [string, string] => [f, readFileSync(join(reportDir, f), 'utf8')]),
      ];
      for (const [name, text] of outputs) expect(leaks(text), name).toEqual([]);
      // The run really went through: async answers came back through the receiver with the secret.
      const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as {
        summary: { outcomes: Record<string, number> };
        receiver: { matched: number; badSecret: number };
      };
      expect(report.summary.outcomes.answered).toBe(6);
      expect(report.receiver.matched).toBe(3);
      expect(report.receiver.badSecret).toBe(0);
      expect(readFileSync(join(reportDir, 'report.json'), 'utf8')).toContain(REDACTED);
    } finally {
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an error message of the CLI is redacted too', async () => {
    const cli = startCli(
      ['run', `/nonexistent/${encodeURIComponent(TOKEN)}.yaml`, '--base-url', 'http://127.0.0.1:9', '--droid-id', '1'],
      {
        DROID_API_TOKEN: TOKEN,
        DROID_WEBHOOK_SECRET: SECRET,
      },
    );
    const code = await cli.exited();
    expect(code).toBe(2);
    expect(cli.stderr()).toContain(REDACTED);
    expect(leaks(cli.stderr() + cli.stdout())).toEqual([]);
  });
});
