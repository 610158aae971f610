/**
 * `droidcheck import`: conversations of an emulator on loopback -> a suite that validates, whose
 * `similar` expectations pass (deterministic embeddings server) for the recorded answers, and
 * that passes when run against the same emulator: its seeded conversations are what its own
 * rule engine answers (scenarios/emulator-profile.yaml), as are conversations it answered itself.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import type { CliContext } from '../../src/cli/shared.js';
import type { ConversationMessage } from '../../src/contract/index.js';
import { ConfigError, UsageError } from '../../src/errors.js';
import { generateAnswer, loadProfile } from '../../src/emulator/index.js';
import { conversationTurns, runImport, thinkText, type ImportIo } from '../../src/jobs/import/import.js';
import { createGrader, resolveLlmConfig, type Grader } from '../../src/llm/index.js';
import { PlanSource, runEngine } from '../../src/runner/index.js';
import { evaluateExpectations, loadSuites, type Suite } from '../../src/scenario/index.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai.js';

let rig: Loopback;
let llm: FakeOpenAi;
let dir: string;
let grader: Grader;
let baseUrl: string;

function sink(): ImportIo & { text(): string } {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (c: Buffer) => chunks.push(c.toString()));
  err.on('data', (c: Buffer) => chunks.push(c.toString()));
  return { stdout: out, stderr: err, text: () => chunks.join('') };
}

beforeEach(async () => {
  rig = await startLoopback();
  baseUrl = `http://127.0.0.1:${(rig.emulator.app.server.address() as { port: number }).port}`;
  llm = await startFakeOpenAi();
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-import-'));
  grader = createGrader(resolveLlmConfig({ embeddingModel: 'embed-1' }, { OPENAI_BASE_URL: llm.url }, undefined, dir)!);
});
afterEach(async () => {
  await grader.close();
  await llm.close();
  await rig.close();
  await rm(dir, { recursive: true, force: true });
});

const target = () => ({ baseUrl, droidId: rig.emulator.droidId, token: rig.emulator.token });

describe('import from an emulator on loopback', () => {
  it('writes a suite that validates; its similar expectations pass for the recorded answers and fail for others', async () => {
    const out = join(dir, 'scenarios', 'imported.yaml');
    const io = sink();
    const result = await runImport({ ...target(), customers: ['2001', 2002], out }, io);
    expect(result).toMatchObject({
      scenarios: 4,
      target: 'remote',
      customers: [
        { customerId: 2001, messages: 6, scenarios: 3, source: 'conversations' },
        { customerId: 2002, scenarios: 1 },
      ],
    });
    const text = await readFile(out, 'utf8');
    expect(text.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=.*droidcheck\.schema\.json$/);
    expect(text).not.toContain(rig.emulator.token);

    const [suite] = await loadSuites([out]);
    expect(suite!.scenarios.map((s) => s.name)).toEqual([
      'customer 2001, turn 1: สวัสดีครับ',
      'customer 2001, turn 2: https://images.example.com/uploads/oxford-shirt-w…',
      'customer 2001, turn 3: เอา 2 ตัวครับ ส่งที่ 99 ถนนสุขุมวิท กรุงเทพ 10110',
      "customer 2002, turn 1: I'd like to buy the denim jacket, please.",
    ]);
    const last = suite!.scenarios[2]!;
    expect(last.chatHistory).toEqual([
      { type: 'human', content: 'สวัสดีครับ' },
      { type: 'ai', content: 'สวัสดีค่ะ ยินดีต้อนรับสู่ร้านของเรา มีอะไรให้ช่วยไหมคะ' },
      {
        type: 'human',
        content: 'https://images.example.com/uploads/oxford-shirt-white.jpg',
        contentType: 'image',
        alt: 'Product photo: Oxford shirt (oxford shirt white)',
      },
      { type: 'ai', content: 'The Oxford shirt is 1,290.00 THB and is in stock.' },
    ]);
    expect(last.expect).toEqual([
      expect.objectContaining({
        path: 'answer',
        matcher: 'similar',
        expected: {
          values: [
            'เพิ่มลงตะกร้าแล้วค่ะ: Oxford shirt จำนวน 2 ชิ้น ชิ้นละ 1,290.00 THB (2,580.00 THB)\n\nส่งฟรี ยอดรวมทั้งหมด 2,580.00 THB ค่ะ\n\nจัดส่งไปที่ 99 ถนนสุขุมวิท, กรุงเทพมหานคร 10110 ค่ะ',
          ],
          threshold: 0.8,
        },
      }),
    ]);

    for (const s of suite!.scenarios) {
      const recorded = (s.expect[0]!.expected as { values: string[] }).values[0]!;
      const same = await evaluateExpectations(s.expect, { answer: recorded }, { grader });
      expect(same).toMatchObject({ failures: [], judgeErrors: [] });
      const other = await evaluateExpectations(s.expect, { answer: 'Sorry, the shop is closed today.' }, { grader });
      expect(other.failures).toHaveLength(1);
    }
    expect(io.text()).toContain('customer 2001: 6 message(s), 3 AI turn(s) imported');
  });

  it('the seeded customers import into a suite that passes against the same emulator, in both modes', async () => {
    const out = join(dir, 'seeded.yaml');
    const result = await runImport({ ...target(), customers: [2001, 2002, 2003], out }, sink());
    expect(result.customers.map((c) => [c.customerId, c.scenarios])).toEqual([
      [2001, 3],
      [2002, 1],
      [2003, 0],
    ]);
    const suites: Suite[] = await loadSuites([out]);
    const run = await runEngine({
      source: PlanSource.of(suites),
      scheduler: { kind: 'closed', concurrency: 4 },
      client: rig.client,
      receiver: rig.receiver,
      timeoutMs: 10_000,
      keepRecords: true,
      grader,
    });
    expect(run.records).toHaveLength(8);
    const failed = run
      .records!.filter((r) => !r.passed)
      .map((r) => ({ s: r.scenario, m: r.mode, o: r.outcome, f: r.failures.map((f) => f.message), j: r.judgeErrors }));
    expect(failed).toEqual([]);
    expect(run.records!.flatMap((r) => r.grades ?? []).map((g) => g.score)).toEqual(
      Array(8).fill(expect.closeTo(1, 5)),
    );
    expect(llm.embeddingRequests().length).toBeGreaterThan(0);
  });

  it('--turns conversation: one steps scenario per customer, the real pauses as think', async () => {
    const out = join(dir, 'talks.yaml');
    const result = await runImport({ ...target(), customers: [2001, 2002], out, turns: 'conversation' }, sink());
    expect(result).toMatchObject({
      scenarios: 2,
      customers: [
        { customerId: 2001, scenarios: 1 },
        { customerId: 2002, scenarios: 1 },
      ],
    });
    const text = await readFile(out, 'utf8');
    expect(text).toMatch(/- say: https:\/\/images\.example\.com\S+\n\s+think: 15s\n/);
    const [suite] = await loadSuites([out]);
    const [talk, single] = suite!.scenarios;
    expect(talk!.name).toBe('customer 2001: conversation of 3 turns');
    // 10:29:50 answer -> 10:30:05 next message; 10:30:20 answer -> 10:30:40 next message.
    expect(talk!.steps!.map((s) => [s.kind, s.think?.kind === 'fixed' ? s.think.ms : undefined])).toEqual([
      ['say', undefined],
      ['say', 15_000],
      ['say', 20_000],
    ]);
    expect(talk!.steps!.every((s) => s.expect[0]?.matcher === 'similar')).toBe(true);
    expect(single!.steps).toHaveLength(1);
  });

  it("every seeded AI message is what the emulator's rule engine answers to the turn as import replays it", () => {
    // Regenerate a message this names with the printed answer (scenarios/emulator-profile.yaml).
    const profile = loadProfile();
    const differing: string[] = [];
    for (const customer of profile.customers) {
      for (const turn of conversationTurns(customer.conversations)) {
        const chatHistory = turn.chatHistory.map((t) =>
          'human' in t
            ? { type: 'human' as const, content: t.human }
            : 'ai' in t
              ? { type: 'ai' as const, content: t.ai }
              : { type: t.type, content: t.content },
        );
        const answer = generateAnswer(
          { humanMessage: turn.humanMessage, chatHistory },
          profile.catalogue,
          profile.intents,
        ).answer;
        if (answer !== turn.answer)
          differing.push(`customer ${customer.customerId}, AI turn ${turn.ordinal}: ${JSON.stringify(answer)}`);
      }
    }
    expect(differing).toEqual([]);
  });

  it('conversations the emulator answered itself pass when replayed against the same emulator', async () => {
    for (const text of ['I want 2 canvas sneakers', 'Please send them to 12 Beach Rd, Phuket 83000']) {
      const before = rig.emulator.stats().botReplies;
      const sent = await rig.client.send({ customerId: 2003, humanMessage: text });
      expect((sent.body as { mid: unknown }).mid).toEqual(expect.any(String));
      // The bot's reply is stored after the answer delay (it arrives later, as on the service).
      await expect.poll(() => rig.emulator.stats().botReplies).toBe(before + 1);
    }
    const out = join(dir, 'replay.yaml');
    await runImport({ ...target(), customers: [2003], out, threshold: 0.95 }, sink());
    const [suite] = await loadSuites([out]);
    expect(suite!.scenarios).toHaveLength(2);
    for (const s of suite!.scenarios) {
      const res = await rig.client.getDroidAnswer({
        humanMessage: { content: s.humanMessage, type: 'human' },
        chatHistory: s.chatHistory,
      });
      const evaluation = await evaluateExpectations(s.expect, res.body, { grader });
      expect(evaluation).toMatchObject({ failures: [], judgeErrors: [] });
      expect(evaluation.grades[0]!.score).toBeCloseTo(1, 5);
    }
  });

  it('--turns last, from the embedded emulator when no base URL is given', async () => {
    const out = join(dir, 'last.yaml');
    const result = await runImport({ customers: [2001, 2002], out, turns: 'last', threshold: 0.7 }, sink());
    expect(result).toMatchObject({ target: 'emulator', scenarios: 2 });
    const [suite] = await loadSuites([out]);
    expect(suite!.scenarios.map((s) => s.name.split(':')[0])).toEqual([
      'customer 2001, turn 3',
      'customer 2002, turn 1',
    ]);
    expect((suite!.scenarios[0]!.expect[0]!.expected as { threshold: number }).threshold).toBe(0.7);
  });

  it('says what is wrong: unknown customer, nothing to import, existing file, missing token or droid id', async () => {
    const out = join(dir, 'x.yaml');
    await expect(runImport({ ...target(), customers: [9999], out }, sink())).rejects.toThrow(ConfigError);
    await expect(runImport({ ...target(), customers: [9999], out }, sink())).rejects.toThrow(
      /customer 9999: .*403.*wrong droid id or customer id/,
    );
    await expect(runImport({ ...target(), customers: [1001], out }, sink())).rejects.toThrow(/nothing to import/);
    await expect(runImport({ ...target(), customers: [], out }, sink())).rejects.toThrow(UsageError);
    await expect(runImport({ ...target(), customers: [2001], out, threshold: 2 }, sink())).rejects.toThrow(
      /--threshold is from 0 to 1/,
    );
    await expect(runImport({ ...target(), token: undefined, customers: [2001], out }, sink())).rejects.toThrow(
      /DROID_API_TOKEN/,
    );
    await expect(runImport({ ...target(), droidId: undefined, customers: [2001], out }, sink())).rejects.toThrow(
      /--droid-id/,
    );
    await writeFile(out, 'keep me', 'utf8');
    await expect(runImport({ ...target(), customers: [2001], out }, sink())).rejects.toThrow(/exists; pass --force/);
    expect(await readFile(out, 'utf8')).toBe('keep me');
    await runImport({ ...target(), customers: [2001], out, force: true }, sink());
    expect(await readFile(out, 'utf8')).toContain('suite: Imported conversations');
  });
});

describe('droidcheck import (CLI)', () => {
  it('takes the target from flags and the token from the environment', async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    let printed = '';
    out.on('data', (c: Buffer) => (printed += c.toString()));
    err.on('data', (c: Buffer) => (printed += c.toString()));
    const ctx: CliContext = {
      stdout: out,
      stderr: err,
      env: { DROID_API_TOKEN: rig.emulator.token },
      color: false,
      exitCode: -1,
    };
    const file = join(dir, 'cli.yaml');
    const argv = [
      'node',
      'droidcheck',
      'import',
      '--customer',
      '2001',
      '--out',
      file,
      '--base-url',
      baseUrl,
      '--droid-id',
      String(rig.emulator.droidId),
      '--turns',
      'last',
    ];
    await createProgram(ctx).parseAsync(argv);
    expect(ctx.exitCode).toBe(0);
    expect(printed).toContain(`wrote ${file}: 1 scenario(s) from 1 customer(s)`);
    const [suite] = await loadSuites([file]);
    expect(suite!.scenarios).toHaveLength(1);
    await expect(createProgram(ctx).parseAsync([...argv.slice(0, -1), 'first', '--force'])).rejects.toThrow(
      '--turns is all, last or conversation, not "first"',
    );
  });
});

describe('conversationTurns', () => {
  const msg = (
    id: number,
    type: string,
    content: string,
    extra: Partial<ConversationMessage> = {},
  ): ConversationMessage => ({
    id,
    type,
    contentType: 'text',
    content,
    alt: '',
    note: null,
    createdAt: `2025-01-15T10:00:${String(id).padStart(2, '0')}+07:00`,
    updatedAt: `2025-01-15T10:00:${String(id).padStart(2, '0')}+07:00`,
    ...extra,
  });

  it('orders oldest first, merges an AI run into one answer, keeps admin replies as history, drops system messages', () => {
    const newestFirst = [
      msg(8, 'ai', 'Anything else?'),
      msg(7, 'human', 'Thanks'),
      msg(6, 'admin', 'A person here: your parcel left today.'),
      msg(5, 'system', 'bot disabled'),
      msg(4, 'human', 'Where is my parcel?'),
      msg(3, 'ai', 'Total 2,580.00 THB.'),
      msg(2, 'ai', 'https://cdn.example/cart.png', { contentType: 'image', alt: 'cart' }),
      msg(1, 'ai', 'Added 2 shirts.'),
      msg(0, 'human', 'Two shirts please'),
    ];
    const turns = conversationTurns(newestFirst);
    expect(turns).toEqual([
      {
        chatHistory: [],
        humanMessage: 'Two shirts please',
        answer: 'Added 2 shirts.\n\nTotal 2,580.00 THB.',
        ordinal: 1,
      },
      {
        chatHistory: [
          { human: 'Two shirts please' },
          { ai: 'Added 2 shirts.' },
          { type: 'ai', content: 'https://cdn.example/cart.png', contentType: 'image', alt: 'cart' },
          { ai: 'Total 2,580.00 THB.' },
          { human: 'Where is my parcel?' },
          { ai: 'A person here: your parcel left today.' },
        ],
        humanMessage: 'Thanks',
        answer: 'Anything else?',
        ordinal: 2,
        thinkMs: 1000, // from the admin's reply (10:00:06) to the customer's message (10:00:07)
      },
    ]);
  });

  it("keeps the customer's pause before each message, capped at 10 min", () => {
    const turns = conversationTurns([
      msg(0, 'human', 'Hi'),
      msg(1, 'ai', 'Hello!'),
      { ...msg(2, 'human', 'Back again'), createdAt: '2025-01-15T12:00:02+07:00' },
      { ...msg(3, 'ai', 'Welcome back'), createdAt: '2025-01-15T12:00:03+07:00' },
    ]);
    expect(turns.map((t) => t.thinkMs)).toEqual([undefined, 600_000]);
    expect([850, 4210, 15_000, 600_000].map(thinkText)).toEqual(['850ms', '4.2s', '15s', '10m']);
  });

  it('an AI message with no human message before it is not a turn', () => {
    expect(conversationTurns([msg(1, 'ai', 'Welcome!')])).toEqual([]);
  });
});
