/**
 * `compare` lists what changed in the bot's answers between two runs of one suite against two
 * versions of a bot at one address (test/helpers/answer-switch.ts in front of the independent
 * test/helpers/alt-service.ts, so nothing here is the embedded emulator's doing): the changed
 * answer with its word diff, intents, cart line and address; the unchanged ones counted, not
 * listed. `--keep-answers` keeps every turn; a report without answers (an earlier droidcheck's)
 * is compared without error; `run --baseline` draws the two answers side by side in report.html.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAltService, type AltService } from '../helpers/alt-service.js';
import { startAnswerSwitch, type AnswerSwitch } from '../helpers/answer-switch.js';
import { passedExitCode } from '../helpers/cli.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';
import { unwrapped } from '../helpers/console-text.js';

const SUITE = `suite: Answers
scenarios:
  - name: greets
    humanMessage: Hello there!
  - name: orders shirts
    humanMessage: I want to buy 2 flannel shirts, send them to 99 Sukhumvit Rd, Bangkok 10110
  - name: greets, then orders
    steps:
      - say: Hi!
      - say: I want to buy a wool beanie, send it to 12 Silom Rd, Bangkok 10500
`;

describe('compare: what changed in the answers', () => {
  let dir: string;
  let service: AltService;
  let bot: AnswerSwitch;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-cmp-answers-'));
    await writeFile(join(dir, 'suite.yaml'), SUITE);
    service = await startAltService({ answerWebhook: null, answerDelayMs: 0 });
    bot = await startAnswerSwitch(service.url);
  });
  afterAll(async () => {
    await bot?.close();
    await service?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const runAgainst = async (version: 'a' | 'b', out: string, more: string[] = []) => {
    bot.version = version;
    const res = await cli(
      [
        'run',
        join(dir, 'suite.yaml'),
        '--base-url',
        bot.url,
        '--droid-id',
        String(service.droidId),
        '--mode',
        'sync',
        '--reporter',
        'json',
        '--reporter',
        'html',
        '--reporter',
        'markdown',
        '-o',
        join(dir, out),
        ...more,
      ],
      { env: { DROID_API_TOKEN: service.token } },
    );
    // 0, or 98 on a machine so busy that the run's own latency figures were not trusted.
    expect(res.code, res.stdout + res.stderr).toBe(passedExitCode(join(dir, out)));
    return join(dir, out, 'report.json');
  };

  it('lists the changed answers, not the unchanged', async () => {
    const a = await runAgainst('a', 'a');
    const b = await runAgainst('b', 'b');
    const doc = JSON.parse(await readFile(a, 'utf8'));
    // The last turn of each scenario: a conversation's second say.
    expect(
      doc.answers.map((e: { name: string; turns: { turn: number }[] }) => [e.name, e.turns.map((t) => t.turn)]),
    ).toEqual([
      ['greets', [1]],
      ['orders shirts', [1]],
      ['greets, then orders', [2]],
    ]);

    const cmp = await cli(['compare', a, b]);
    expect(cmp.code, cmp.stdout + cmp.stderr).toBe(0);
    expect(cmp.stdout).toContain('no regression');
    expect(cmp.stdout).toContain('Answers that changed: 2 of 3 (1 unchanged, not listed):');
    expect(cmp.stdout).toContain('Answers › orders shirts [sync]\n');
    expect(cmp.stdout).toContain('Answers › greets, then orders [sync] turn 2\n');
    expect(cmp.stdout).not.toContain('Answers › greets [sync]');
    expect(cmp.stdout).toMatch(
      /text: Thanks[^\n]*\n\n {8}Your order: 2 x Flannel shirt\. \[-To pay:-\]\{\+Total due:\+\} 83\.00 USD\./,
    );
    expect(cmp.stdout).toContain('intents: +upsell');
    expect(unwrapped(cmp.stdout)).toMatch(/cart: lines \+\{.*"qty":3.*\}, -\{.*"qty":2.*\}/);
    expect(cmp.stdout).toContain('address: city "Bangkok" -> "BANGKOK"');

    // The same comparison as a page of its own and as Markdown.
    const html = join(dir, 'cmp', 'compare.html');
    const md = join(dir, 'cmp', 'compare.md');
    const files = await cli(['compare', a, b, '--html', html, '--markdown', md]);
    expect(files.code, files.stdout + files.stderr).toBe(0);
    expect(await readFile(html, 'utf8')).toMatch(
      /<th class="l">baseline<\/th><th class="l">current<\/th>.*<del[^>]*>To pay:<\/del>.*<ins[^>]*>Total due:<\/ins>/s,
    );
    expect(await readFile(md, 'utf8')).toContain('~~To pay:~~ **Total due:**');
    const refused = await cli(['compare', a, b, '--html', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--html');

    // The same version twice: nothing listed, the unchanged counted.
    const same = await cli(['compare', b, b]);
    expect(same.stdout).toContain('answers: 3 compared, none changed');
    expect(same.stdout).not.toContain('Answers that changed');
  });

  it("--keep-answers keeps every turn: a conversation's first turn is compared too", async () => {
    const ka = await runAgainst('a', 'ka', ['--keep-answers']);
    const kb = await runAgainst('b', 'kb', ['--keep-answers']);
    expect(JSON.parse(await readFile(kb, 'utf8')).settings.keepAnswers).toBe(true);
    const all = await cli(['compare', ka, kb]);
    expect(all.stdout).toContain('Answers that changed: 2 of 4 (2 unchanged, not listed):');
    expect(all.stdout).not.toContain('Answers › greets, then orders [sync]\n');
  });

  it('compares a report without answers (an earlier droidcheck) without error; --baseline shows the answers side by side', async () => {
    const a = await runAgainst('a', 'old-a');
    const old = JSON.parse(await readFile(a, 'utf8'));
    delete old.answers;
    const oldFile = join(dir, 'old.json');
    await writeFile(oldFile, JSON.stringify(old));
    const b = await runAgainst('b', 'old-b');
    const cmp = await cli(['compare', oldFile, b]);
    expect(cmp.code, cmp.stdout + cmp.stderr).toBe(0);
    expect(cmp.stdout).toContain('answers not compared: not recorded in the baseline');

    await runAgainst('b', 'vs', ['--baseline', a]);
    const html = await readFile(join(dir, 'vs', 'report.html'), 'utf8');
    const table = html.slice(html.indexOf('<table class="answer-diff">'));
    expect(table).toContain('<th class="l">baseline</th><th class="l">current</th>');
    expect(table).toMatch(/<del[^>]*>To pay:<\/del>.*<\/td><td[^>]*>.*<ins[^>]*>Total due:<\/ins>/s);
    const md = await readFile(join(dir, 'vs', 'summary.md'), 'utf8');
    expect(md).toContain('~~To pay:~~ **Total due:**');
  });
});
