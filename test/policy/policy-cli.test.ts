/**
 * The shop policy end to end, through the CLI (in process) against a real service on
 * 127.0.0.1: the alternative implementation behind a proxy that, flawed, lets its carts drift
 * from the price list, leaves the fee out of a total and promises a "legally binding" refund
 * (test/helpers/policy-shop.ts). `droidcheck run --policy` reports each as a finding with its
 * rule id and exits 1, `load --threshold 'policy.violations < 1'` exits 99; against the same
 * service unflawed, the same runs find no violation and exit 0.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseReportDocument, type ReportDocument } from '../../src/report/index.js';
import { freePort, REPO } from '../helpers/cli.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';
import { ALT_POLICY, POLICY_SUITE, type PolicyShop, startPolicyShop } from '../helpers/policy-shop.js';

const SECRET = 'policy-webhook-secret-0123456789abcdefgh';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-policy-'));
  await writeFile(join(dir, 'shop.policy.yaml'), ALT_POLICY);
  await writeFile(join(dir, 'suite.yaml'), POLICY_SUITE);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const shops: PolicyShop[] = [];
afterEach(async () => {
  while (shops.length > 0) await shops.pop()!.close();
});

/** Runs `command` against a shop (flawed or not) with the alternative shop's policy; the report it wrote. */
async function against(
  flawed: boolean,
  command: string[],
  out: string,
  suites: string[] = [join(dir, 'suite.yaml')],
): Promise<{ code: number | null; stdout: string; stderr: string; report: ReportDocument }> {
  const port = await freePort();
  const shop = await startPolicyShop({ flawed, receiver: `http://127.0.0.1:${port}`, secret: SECRET });
  shops.push(shop);
  const res = await cli(
    [
      ...command,
      ...suites,
      '--policy',
      join(dir, 'shop.policy.yaml'),
      '--base-url',
      shop.url,
      '--droid-id',
      String(shop.service.droidId),
      '--receiver-port',
      String(port),
      '--reporter',
      'json',
      '--reporter',
      'console',
      '--reporter',
      'junit',
      '-o',
      join(dir, out),
      '--timeout',
      '20s',
    ],
    { env: { DROID_API_TOKEN: shop.service.token, DROID_WEBHOOK_SECRET: SECRET }, maxMs: 120_000 },
  );
  const report = parseReportDocument(JSON.parse(await readFile(join(dir, out, 'report.json'), 'utf8')));
  return { ...res, report };
}

describe('droidcheck run --policy', () => {
  it('against the flawed shop: each flaw a finding with its rule id and evidence, its scenario failed, exit 1', async () => {
    const { code, stdout, stderr, report } = await against(true, ['run'], 'run-flawed');
    expect(code, stdout).toBe(1);
    // Its canary is the demo shop's: no real droid's instructions hold it, and the job says so.
    expect(stderr).toContain('canaries "Internal rule 7" are the demo shop\'s (droidcheck init wrote them)');
    const policy = report.policy!;
    expect(policy.byRule['catalogue-price']).toBeGreaterThan(0);
    expect(policy.byRule['cart-arithmetic']).toBeGreaterThan(0);
    expect(policy.byRule['forbidden-phrase']).toBeGreaterThan(0);
    const price = policy.findings.find((f) => f.rule === 'catalogue-price')!;
    expect(price).toMatchObject({
      scenario: 'buys a flannel shirt',
      turn: 1,
      field: 'shoppingCart.products[0].unitPrice',
      expected: '39.00 USD',
      got: '42.90 USD',
    });
    expect(policy.findings.find((f) => f.rule === 'cart-arithmetic')).toMatchObject({
      scenario: 'buys a wool beanie',
      field: 'shoppingCart.grandTotal',
      got: '18.00 USD',
    });
    expect(policy.findings.find((f) => f.rule === 'forbidden-phrase')).toMatchObject({
      scenario: 'asks about a refund',
      expected: 'no legally binding',
    });
    // The async answers carry their requestId into the evidence.
    expect(policy.findings.some((f) => f.requestId?.startsWith('tpa-'))).toBe(true);
    // Every scenario failed, in both modes, because of the policy alone.
    expect(report.scenarios.map((s) => [s.name, s.mode, s.passed])).toEqual(
      expect.arrayContaining([
        ['buys a flannel shirt', 'sync', false],
        ['buys a flannel shirt', 'async', false],
        ['buys a wool beanie', 'async', false],
        ['asks about a refund', 'async', false],
      ]),
    );
    for (const rule of ['catalogue-price', 'cart-arithmetic', 'forbidden-phrase']) expect(stdout).toContain(rule);
    const junit = await readFile(join(dir, 'run-flawed', 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase classname="droidcheck.policy" name="catalogue-price"[^>]*>\s*<failure/);
  });

  it('against the same shop unflawed: 0 violations, exit 0', async () => {
    const { code, stdout, report } = await against(false, ['run'], 'run-correct');
    expect(code, stdout).toBe(0);
    expect(report.policy).toMatchObject({ violations: 0, findings: [] });
    expect(report.policy!.answers).toBe(6);
  });
});

describe("droidcheck load --threshold 'policy.violations < 1'", () => {
  // Only the policy's threshold: a shared CI machine may leave the latency figures untrusted (exit 98), which is not what this checks.
  const load = ['load', '--rate', '6', '-d', '2s', '--no-default-thresholds', '--threshold', 'policy.violations < 1'];

  it('against the flawed shop: the threshold is breached, exit 99', async () => {
    const { code, stdout, report } = await against(true, load, 'load-flawed');
    expect(code, stdout).toBe(99);
    const t = report.thresholds.find((x) => x.metric === 'policy.violations')!;
    expect(t.status).toBe('breached');
    expect(t.actual).toBeGreaterThan(0);
  });

  it('against the same shop unflawed: passed, exit 0', async () => {
    const { code, stdout, report } = await against(false, load, 'load-correct');
    expect(code, stdout).toBe(0);
    expect(report.thresholds.find((x) => x.metric === 'policy.violations')).toMatchObject({
      status: 'passed',
      actual: 0,
    });
  });
});

/** The policy's own findings among a report's failures (a failure's matcher is `policy:<rule>`). */
const policyFailures = (report: ReportDocument): string[] =>
  report.scenarios.flatMap((s) =>
    s.failures.filter((f) => f.matcher.startsWith('policy:')).map((f) => `${s.name} [${s.mode}]: ${f.message}`),
  );

describe('no false findings', () => {
  it("every shipped scenario against the embedded emulator, with the demo shop's policy init writes: 0 violations", async () => {
    const project = join(dir, 'init');
    expect((await cli(['init', project])).code).toBe(0);
    const res = await cli(['run', join(REPO, 'scenarios'), '--reporter', 'json', '-o', 'out'], {
      cwd: project,
      maxMs: 120_000,
    });
    const report = parseReportDocument(JSON.parse(await readFile(join(project, 'out', 'report.json'), 'utf8')));
    expect(report.policy?.file).toBe('droidcheck.policy.yaml');
    expect(report.policy?.answers).toBeGreaterThan(40);
    expect(policyFailures(report)).toEqual([]);
    expect(report.policy?.violations).toBe(0);
    // The coverage counts against the same shop: its catalogue, the intents init wrote, its rules.
    expect(report.coverage?.shop?.source).toBe('droidcheck.policy.yaml');
    expect(report.coverage?.products?.total).toBe(8);
    expect(report.coverage?.intents.declared?.total).toBe(10);
    expect(report.coverage?.rules?.byRule.find((r) => r.rule === 'catalogue-price')?.status).toBe('tested');
    expect(res.code, res.stdout).toBe(0);
  });

  it("the shipped portable scenarios against the alternative implementation, with its shop's policy: 0 violations", async () => {
    const { report } = await against(
      false,
      ['run', '--exclude-tag', 'emulator-only', '--exclude-tag', 'demo-shop'],
      'alt-portable',
      [join(REPO, 'scenarios')],
    );
    expect(report.policy?.answers).toBeGreaterThan(10);
    expect(policyFailures(report)).toEqual([]);
    expect(report.policy?.violations).toBe(0);
  });
});

/** A conversation of say steps and a send step, against the embedded emulator. */
const STEPS_SUITE = `suite: Steps
scenarios:
  - name: a conversation and a sent message
    modes: [async]
    steps:
      - say: Hello there!
        capture: { customer: customerId }
      - say: I want to buy 1 Oxford shirt
      - call: send
        customerId: "{{ vars.customer }}"
        humanMessage: Do you sell Oxford shirts?
        waitForReply: 30s
`;

describe('every answer of a steps scenario', () => {
  it("a say step's answer (with its turn) and a send step's reply are judged; each violation fails its step", async () => {
    const project = join(dir, 'steps');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'suite.yaml'), STEPS_SUITE);
    // The demo shop's price list with the Oxford shirt at 990: the emulator's 1,290 breaks it.
    await writeFile(
      join(project, 'shop.yaml'),
      'currency: THB\ncatalogue:\n  - { name: Oxford shirt, price: 990 }\nforbidden: ["/oxford shirts?/i"]\n',
    );
    const res = await cli(['run', 'suite.yaml', '--policy', 'shop.yaml', '--reporter', 'json', '-o', 'out'], {
      cwd: project,
      maxMs: 120_000,
    });
    expect(res.code, res.stdout).toBe(1);
    const report = parseReportDocument(JSON.parse(await readFile(join(project, 'out', 'report.json'), 'utf8')));
    const found = report.policy!.findings.map((f) => [f.rule, f.turn, f.field]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['catalogue-price', 2, 'shoppingCart.products[0].price'],
        ['forbidden-phrase', 2, 'answer'],
        ['forbidden-phrase', 1, 'content.value'],
      ]),
    );
    // Each violation is a failure of its step (the first step's greeting broke nothing).
    const failed = report.scenarios[0]!.failures.map((f) => f.message.replace(/ \(turn.*$/, ''));
    expect([...new Set(failed)].sort()).toEqual([
      'step 2 (say): policy catalogue-price',
      'step 2 (say): policy forbidden-phrase',
      'step 3 (send): policy forbidden-phrase',
    ]);
  });
});
