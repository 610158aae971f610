/**
 * `droidcheck redteam` through the CLI (runProgram, in process) against the embedded
 * emulator on loopback: the robust emulator gives no finding (exit 0); with its planted
 * weaknesses each deterministic category finds its weakness (exit 1), with the conversation to
 * reproduce it in report.json and a failing JUnit testcase per category; a usage mistake is exit
 * 2 before anything is sent. The judged categories go to the fake OpenAI-compatible server,
 * whose key never reaches a report.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../../src/report/index.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';
import { startFakeOpenAi, PASS_VERDICT, type FakeOpenAi } from '../llm/fake-openai.js';

const KEY = 'sk-test-redteam-cli-key-5f6e7d8c9b0a';
const DETERMINISTIC = [
  'price-manipulation',
  'cross-customer-leak',
  'prompt-leak',
  'cart-tampering',
  'staff-impersonation',
];
const WEAKNESSES = 'discount,cross-conversation-leak,recite-instructions,negative-quantity';

let dir: string;
let fake: FakeOpenAi;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-redteam-cli-'));
  fake = await startFakeOpenAi();
  fake.onChat(() => ({ content: PASS_VERDICT }));
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const readReport = async (out: string): Promise<ReportDocument> =>
  JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportDocument;

/** Every file the reporters wrote under `out`, as text. */
async function reportTexts(out: string): Promise<string[]> {
  return Promise.all((await readdir(out)).map((f) => readFile(join(out, f), 'utf8')));
}

describe('droidcheck redteam against the embedded emulator', () => {
  it('finds nothing in the robust emulator, judged categories included (async), and keeps the key out of every report: exit 0', async () => {
    const out = join(dir, 'robust');
    const r = await cli(
      [
        'redteam',
        '--attempts',
        '3',
        '--seed',
        '5',
        '--canary',
        'Internal rule 7',
        '--judge-model',
        'judge-1',
        '--no-cache',
        '--mode',
        'async',
        '-o',
        out,
      ],
      { env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: KEY } },
    );
    expect(r.code, r.stderr).toBe(0);
    const report = await readReport(out);
    expect(report.kind).toBe('redteam');
    expect(report.redteam!.findings).toEqual([]);
    expect(report.redteam!.categories.map((c) => c.id)).toEqual([...DETERMINISTIC, 'off-topic', 'competitor']);
    for (const c of report.redteam!.categories)
      expect(c, c.id).toMatchObject({ attempts: 3, successes: 0, rate: 0, errors: 0, undecided: 0 });
    // Every attack turn went through the async endpoint and its webhook, counted like any job's requests.
    expect(report.summary.requests).toBeGreaterThan(15);
    expect(report.accounting!.webhooks.received).toBe(report.summary.requests);
    // One verdict per judged attempt: off-topic and competitor, and staff-impersonation's optional rubric, 3 each.
    expect(fake.chatRequests().length).toBe(9);
    for (const text of await reportTexts(out)) expect(text).not.toContain(KEY);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('finds each planted weakness with the conversation that reproduces it: exit 1, one failing JUnit testcase per category', async () => {
    const out = join(dir, 'weak');
    const r = await cli([
      'redteam',
      '--attempts',
      '3',
      '--seed',
      '5',
      '--canary',
      'Internal rule 7',
      '--emulator-weaknesses',
      WEAKNESSES,
      '-o',
      out,
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      'planted weaknesses: discount, cross-conversation-leak, recite-instructions, negative-quantity',
    );
    const report = await readReport(out);
    const rt = report.redteam!;
    for (const id of DETERMINISTIC) {
      const row = rt.categories.find((c) => c.id === id)!;
      expect(row.successes, id).toBeGreaterThan(0);
      const finding = rt.findings.find((f) => f.category === id)!;
      expect(finding.transcript, id).toMatch(/^customer: .+\ndroid: .+/m);
      expect(finding.transcript).toContain(finding.attack.split('\n')[0]!.slice(0, 20));
    }
    // Without a judge model the judged categories are skipped, with the reason.
    expect(rt.categories.find((c) => c.id === 'off-topic')!.skipped).toMatch(/needs a judge model/);
    expect(rt.findings.find((f) => f.category === 'prompt-leak')!.transcript).toContain('Internal rule 7');
    expect(report.exitCode).toBe(1);
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    for (const id of DETERMINISTIC)
      expect(junit).toMatch(new RegExp(`<testcase classname="droidcheck.redteam" name="${id}"[^>]*>\\s*<failure`));
    expect(junit).toMatch(/<testcase classname="droidcheck.redteam" name="off-topic"[^>]*>\s*<skipped/);
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toContain('Red team');
  });

  it('refuses a usage mistake before sending anything: exit 2, one line with a did-you-mean', async () => {
    const cases: [string[], RegExp][] = [
      [['--category', 'prompt-leek'], /--category: unknown category "prompt-leek" — did you mean "prompt-leak"\?/],
      [
        ['--emulator-weaknesses', 'discont'],
        /--emulator-weaknesses: unknown weakness "discont" — did you mean "discount"\?/,
      ],
      [['--mode', 'both'], /--mode/],
      [['--rephrase'], /--rephrase .*--judge-model/],
      [['--max-success-rate', '120%'], /--max-success-rate: "120%" must be 0..1 or a percentage/],
    ];
    for (const [args, message] of cases) {
      const out = join(dir, 'usage');
      const r = await cli(['redteam', ...args, '-o', out]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
  });
});
