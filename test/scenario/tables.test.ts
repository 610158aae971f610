/**
 * Scenario tables (`each:`): a scenario becomes one scenario per row at load time, its cells as
 * {{ vars.<column> }} in the name, message, history, expectations and steps; rows inline or from
 * a .csv / .jsonl / .json / .yaml file beside the suite; a problem of a row is reported at the
 * row (file:line:col; CSV: its line), a template naming no column where it is written.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/errors.js';
import { createMix } from '../../src/runner/mix.js';
import { filterScenarios, loadSuites, parseSuite } from '../../src/scenario/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-tables-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes `files` into the test folder; returns the path of the first. */
async function write(files: Record<string, string>): Promise<string> {
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return join(dir, Object.keys(files)[0]!);
}

/** The issues ("file:line:col: message" lines) of the ScenarioError `load` throws. */
async function issuesOf(load: () => unknown): Promise<string[]> {
  try {
    await load();
  } catch (err) {
    if (err instanceof ScenarioError)
      return err.issues.map((i) => `${i.location.file}:${i.location.line}:${i.location.col}: ${i.message}`);
    throw err;
  }
  throw new Error('expected a ScenarioError');
}

const CSV = `product,qty,total
Oxford shirt,2,"2,580.00 THB"
"Cotton T-shirt",1,440.00 THB

"Linen ""summer"" trousers",1,"1,590.00 THB"
"Tote
bag",2,950.00 THB
`;

describe('each: a CSV file beside the suite', () => {
  it('gives one scenario per row, each named and rendered by its row, located at its line', async () => {
    const file = await write({
      'csv.yaml': `suite: Shop
scenarios:
  - name: "buys {{ vars.qty }} x {{ vars.product }}"
    tags: [cart, "qty-{{ vars.qty }}"]
    each: ./products.csv
    chatHistory:
      - human: Do you sell {{ vars.product }}?
    humanMessage: I want {{ vars.qty }} {{ vars.product }}
    expect:
      shoppingCart.grandTotal: { money: "{{ vars.total }}" }
      answer: { contains: "{{ vars.total }}" }
      shoppingCart.products.0.quantity: { gte: "{{ vars.qty }}" }
`,
      'products.csv': CSV,
    });
    const [suite] = await loadSuites([file]);
    const csv = join(dir, 'products.csv');
    expect(suite!.scenarios.map((s) => [s.name, s.location, s.tags])).toEqual([
      ['buys 2 x Oxford shirt', { file: csv, line: 2, col: 1 }, ['cart', 'qty-2']],
      ['buys 1 x Cotton T-shirt', { file: csv, line: 3, col: 1 }, ['cart', 'qty-1']],
      ['buys 1 x Linen "summer" trousers', { file: csv, line: 5, col: 1 }, ['cart', 'qty-1']],
      ['buys 2 x Tote\nbag', { file: csv, line: 6, col: 1 }, ['cart', 'qty-2']],
    ]);
    const first = suite!.scenarios[0]!;
    expect(first.humanMessage).toBe('I want 2 Oxford shirt');
    expect(first.chatHistory).toEqual([{ type: 'human', content: 'Do you sell Oxford shirt?' }]);
    expect(first.vars).toEqual({ product: 'Oxford shirt', qty: '2', total: '2,580.00 THB' });
    expect(first.expect.map((e) => [e.path, e.matcher, e.expected, e.location.line])).toEqual([
      ['shoppingCart.grandTotal', 'money', { amount: 2580, currency: 'THB' }, 10],
      ['answer', 'contains', '2,580.00 THB', 11],
      ['shoppingCart.products.0.quantity', 'gte', '2', 12],
    ]);
  });

  it('lets --grep, tags and --weight address rows, and load draw them', async () => {
    const file = await write({
      'mix.yaml': `suite: Mix
scenarios:
  - name: "price of {{ vars.product }}"
    tags: ["{{ vars.kind }}"]
    each: [{ product: shirt, kind: top }, { product: scarf, kind: accessory }, { product: belt, kind: accessory }]
    humanMessage: How much is a {{ vars.product }}?
`,
    });
    const suites = await loadSuites([file]);
    const names = (s: typeof suites) => s.flatMap((x) => x.scenarios.map((c) => c.name));
    expect(names(filterScenarios(suites, { grep: 'scarf' }))).toEqual(['price of scarf']);
    expect(names(filterScenarios(suites, { tags: ['accessory'] }))).toEqual(['price of scarf', 'price of belt']);
    const mix = createMix(suites, { mode: 'sync', weights: { 'price of belt': 0, 'Mix/price of scarf': 3 } });
    expect(mix.entries.map((e) => e.scenario.name)).toEqual(['price of shirt', 'price of scarf']);
    const drawn = new Set(Array.from({ length: 200 }, (_, i) => mix.pick(i).scenario.name));
    expect(drawn).toEqual(new Set(['price of shirt', 'price of scarf']));
  });
});

describe('each: rows inline, .jsonl, .json and .yaml', () => {
  it('reads every form, keeps JSON and YAML types, and names rows without a template by their key', async () => {
    const file = await write({
      'forms.yaml': `suite: Forms
scenarios:
  - name: inline
    vars: { greeting: Hello }
    each:
      - { sku: A1, qty: 2 }
      - { sku: B2, qty: 3, greeting: Hi }
    humanMessage: "{{ vars.greeting }}, {{ vars.qty }} of {{ vars.sku }}"
    expect: { shoppingCart.products.0.quantity: "{{ vars.qty }}" }
  - name: lines
    each: ./rows.jsonl
    humanMessage: "{{ vars.q }}"
  - name: json
    each: ./rows.json
    humanMessage: "{{ vars.q }}"
  - name: yaml
    each: ./rows.yaml
    humanMessage: "{{ vars.q }}"
`,
      'rows.jsonl': '{"q": "one"}\n\n{"q": "one"}\n',
      'rows.json': '[\n  {"q": "two"},\n  {"q": "three"}\n]\n',
      'rows.yaml': '- q: four\n- q: five\n',
    });
    const [suite] = await loadSuites([file]);
    expect(suite!.scenarios.map((s) => [s.name, s.humanMessage, `${s.location.line}:${s.location.col}`])).toEqual([
      ['inline [A1]', 'Hello, 2 of A1', '6:9'],
      ['inline [B2]', 'Hi, 3 of B2', '7:9'],
      ['lines [row 1]', 'one', '1:1'],
      ['lines [row 2]', 'one', '3:1'],
      ['json [two]', 'two', '2:3'],
      ['json [three]', 'three', '3:3'],
      ['yaml [four]', 'four', '1:3'],
      ['yaml [five]', 'five', '2:3'],
    ]);
    // A whole template in an expected value keeps the cell's type (a YAML number stays a number).
    expect(suite!.scenarios[0]!.expect[0]!.expected).toBe(2);
  });

  it('renders the row in steps and leaves the runtime variables (vars:, captures) to the runner', async () => {
    const file = await write({
      'steps.yaml': `scenarios:
  - name: "ask about {{ vars.topic }}"
    vars: { customer: 1001 }
    each: [{ topic: shipping }, { topic: returns }]
    steps:
      - say: Tell me about {{ vars.topic }}
        capture: { reply: answer }
      - call: ask
        customerId: "{{ vars.customer }}"
        prompt: "{{ vars.reply }} / {{ vars.topic }}"
`,
    });
    const suite = parseSuite(await readFile(file, 'utf8'), file);
    const [, second] = suite.scenarios;
    expect(second!.vars).toEqual({ customer: 1001, topic: 'returns' });
    expect(
      second!.steps!.map((s) => (s.kind === 'say' ? s.text : s.kind === 'call' ? [s.customerId, s.prompt] : s.kind)),
    ).toEqual(['Tell me about returns', ['{{ vars.customer }}', '{{ vars.reply }} / returns']]);
  });
});

describe('each: problems are reported where they are', () => {
  it('a template naming no column, a row without a used column, a CSV record of the wrong length', async () => {
    const file = await write({
      'bad.yaml': `scenarios:
  - name: "buys {{ vars.product }}"
    each: ./bad.csv
    humanMessage: I want {{ vars.prodct }}
  - name: "row {{ vars.a }}"
    each:
      - { a: 1, b: x }
      - { a: 2 }
    humanMessage: "{{ vars.b }}"
`,
      'bad.csv': 'product\nshirt\n',
    });
    expect(await issuesOf(() => loadSuites([file]))).toEqual([
      `${file}:4:19: no column "prodct" in the table (each:) — did you mean "product"?`,
      `${file}:8:9: row 2 has no "b", which the scenario uses as {{ vars.b }}`,
    ]);
    const csv = await write({
      'short.yaml': 'scenarios:\n  - name: "{{ vars.a }}"\n    each: ./short.csv\n    humanMessage: hi\n',
      'short.csv': 'a,b\n1,2\n3\n',
    });
    expect(await issuesOf(() => loadSuites([csv]))).toEqual([
      `${join(dir, 'short.csv')}:3:1: CSV: Invalid Record Length: expect 2, got 1`,
    ]);
  });

  it("a value a row's cell filled in that the schema refuses: at the row's own line, once per such row", async () => {
    const file = await write({
      'cells.yaml': `scenarios:
  - name: "buys {{ vars.product }}"
    each: ./cells.csv
    humanMessage: I want {{ vars.product }}
    modes: ["{{ vars.mode }}"]
`,
      'cells.csv': 'product,mode\nshirt,sync\nscarf,sideways\nbag,async\n',
    });
    const issues = await issuesOf(() => loadSuites([file]));
    expect(issues).toHaveLength(1);
    // The third line of the CSV holds the bad cell; the template's line (5) is not where to look.
    expect(issues[0]).toMatch(new RegExp(`^${join(dir, 'cells.csv').replace(/[.\\]/g, '\\$&')}:3:1: `));
    expect(issues[0]).toContain('sideways');
  });

  it('a missing rows file, two rows with one name, a bad cell, a column that is no variable name', async () => {
    const file = await write({
      'more.yaml': `scenarios:
  - name: gone
    each: ./nowhere.csv
    humanMessage: hi
  - name: "same {{ vars.a }}"
    each: [{ a: 1 }, { a: 1 }]
    humanMessage: hi
  - name: cells
    each: ./cells.jsonl
    humanMessage: hi
`,
      'cells.jsonl': '{"a": null}\n{"my col": 1}\n',
    });
    const cells = join(dir, 'cells.jsonl');
    expect(await issuesOf(() => loadSuites([file]))).toEqual([
      `${file}:3:11: each: cannot read ${join(dir, 'nowhere.csv')} (./nowhere.csv beside the suite): no such file`,
      `${file}:6:22: row 2 is named "same 1" like row 1: put a column that tells the rows apart in the name`,
      `${cells}:1:1: row 1, column "a": a cell is a string, a number, true/false, a list or a map, got null`,
      `${cells}:2:1: row 2: bad column name "my col": letters, digits and _, not starting with a digit (it is used as {{ vars.my col }})`,
    ]);
  });
});

describe('each: a list cell as the whole chat history', () => {
  it('takes the history from a JSON lines column, and refuses the template outside a table', async () => {
    const file = await write({
      'history.yaml': `scenarios:
  - name: "turn {{ vars.turn }}"
    each: ./history.jsonl
    chatHistory: "{{ vars.history }}"
    humanMessage: "{{ vars.message }}"
`,
      'history.jsonl': `${JSON.stringify({ turn: 1, history: [], message: 'Hi' })}\n${JSON.stringify({
        turn: 2,
        history: [{ human: 'Hi' }, { ai: 'Hello! How can I help?' }],
        message: 'Two shirts',
      })}\n`,
    });
    const [suite] = await loadSuites([file]);
    expect(suite!.scenarios.map((s) => [s.name, s.chatHistory, s.vars])).toEqual([
      ['turn 1', [], { turn: 1, message: 'Hi' }],
      [
        'turn 2',
        [
          { type: 'human', content: 'Hi' },
          { type: 'ai', content: 'Hello! How can I help?' },
        ],
        { turn: 2, message: 'Two shirts' },
      ],
    ]);
    const plain = await write({
      'plain.yaml': 'scenarios:\n  - name: plain\n    chatHistory: "{{ vars.history }}"\n    humanMessage: hi\n',
    });
    expect(await issuesOf(() => loadSuites([plain]))).toEqual([
      `${plain}:3:18: chatHistory "{{ vars.history }}" names a column: that is for a table (each:) whose rows hold the history; here write the turns as a list`,
    ]);
  });
});
