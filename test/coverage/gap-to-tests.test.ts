/**
 * From gap to tests, against a second implementation of the API (test/helpers/alt-service.ts)
 * whose shop is three products, with cart lines and intents of its own shape: a suite that asks
 * about one product covers 1 of 3 and never reaches the address stage; `coverage.products >=
 * 100%` exits 99 naming the two others; `droidcheck coverage --scenarios` writes a table whose
 * rows, run with the suite, cover 3 of 3 and exit 0 against the correct implementation, and
 * exit 1 against one that quotes a wrong price for one of the two products.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/emulator/ai/index.js';
import { parseReportDocument, type ReportDocument } from '../../src/report/index.js';
import { loadSuites } from '../../src/scenario/index.js';
import { ALT_CATALOGUE, startAltService, type AltService } from '../helpers/alt-service.js';
import { droidcheck, freePort, passedExitCode } from '../helpers/cli.js';

const SECRET = 'gap-webhook-secret-0123456789abcdefghijkl';

/** Three of the alternative shop's products: Flannel shirt 39, Wool beanie 18, Rain jacket 89 USD; shipping 5, free from 100. */
const THREE: Catalogue = { ...ALT_CATALOGUE, products: ALT_CATALOGUE.products.slice(0, 3) };
/** The same shop quoting 21.00 USD for a Wool beanie, whose list price is 18.00. */
const MISPRICED: Catalogue = {
  ...THREE,
  products: THREE.products.map((p) => (p.name === 'Wool beanie' ? { ...p, price: 21 } : p)),
};

const POLICY = `currency: USD
catalogue:
  - { name: Flannel shirt, price: 39, aliases: [flannel] }
  - { name: Wool beanie, price: 18, aliases: [beanie] }
  - { name: Rain jacket, price: 89 }
shipping: { fee: 5, freeFrom: 100 }
intents: [buy, question, delivery]
`;

/** Asks about one product of three, and never gives an address. */
const SUITE = `suite: One product
scenarios:
  - name: buys two flannel shirts
    humanMessage: I want to buy 2 flannel shirts
    expect:
      shoppingCart.grandTotal: { money: "83.00 USD" }
`;

describe('droidcheck coverage: from the gap to tests, against another implementation', () => {
  let dir: string;
  const services: AltService[] = [];

  /** The implementation selling `catalogue`, its answer webhook at a free port of this machine. */
  async function service(catalogue: Catalogue): Promise<{ service: AltService; port: number }> {
    const port = await freePort();
    const s = await startAltService({
      catalogue,
      answerWebhook: { url: `http://127.0.0.1:${port}/webhook`, secret: SECRET },
    });
    services.push(s);
    return { service: s, port };
  }

  /** `droidcheck run <files> --policy shop.policy.yaml` against `target`, reports in `out`. */
  async function run(target: { service: AltService; port: number }, out: string, files: string[], more: string[] = []) {
    const res = await droidcheck(
      [
        'run',
        ...files,
        '--policy',
        'shop.policy.yaml',
        '--base-url',
        target.service.url,
        '--droid-id',
        String(target.service.droidId),
        '--receiver-port',
        String(target.port),
        '--timeout',
        '20s',
        '-o',
        out,
        ...more,
      ],
      { cwd: dir, env: { DROID_API_TOKEN: target.service.token, DROID_WEBHOOK_SECRET: SECRET }, maxMs: 120_000 },
    );
    const report: ReportDocument = parseReportDocument(
      JSON.parse(await readFile(join(dir, out, 'report.json'), 'utf8')),
    );
    return { ...res, report };
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-gap-'));
    await writeFile(join(dir, 'shop.policy.yaml'), POLICY);
    await writeFile(join(dir, 'suite.yaml'), SUITE);
  });
  afterAll(async () => {
    for (const s of services) await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('covers 1 of 3, exits 99 on coverage.products >= 100% naming the others, and the table takes it to 3 of 3', async () => {
    const correct = await service(THREE);
    const first = await run(correct, 'first', ['suite.yaml'], ['--threshold', 'coverage.products >= 100%']);
    const products = first.report.coverage?.products;
    expect(products).toMatchObject({ covered: 1, total: 3, uncovered: ['Wool beanie', 'Rain jacket'] });
    // Its cart lines are {sku, title, qty, unitPrice, lineTotal}: read where they are.
    expect(products?.byProduct[0]).toMatchObject({ name: 'Flannel shirt', inCart: 2, quantities: [2] });
    expect(products?.unmatchedLines).toBe(0);
    // No message gave an address: no conversation reached the address stage.
    expect(first.report.coverage?.funnel).toMatchObject({ conversations: 1, stages: { cart: 1, address: 0 } });
    // Its intents are its owner's names: `buy` is one the policy declares.
    expect(first.report.coverage?.intents.declared).toMatchObject({ total: 3, covered: 1 });
    expect(first.code, first.stderr).toBe(99);
    expect(first.stdout).toContain(
      '✗ coverage.products >= 100% (actual 33.3%, 3 products; not covered: Wool beanie, Rain jacket)',
    );

    const gaps = await droidcheck(['coverage', 'first/report.json', '--scenarios', 'gaps.yaml'], { cwd: dir });
    expect(gaps.code, gaps.stderr).toBe(0);
    expect(gaps.stdout).toContain(
      'wrote gaps.yaml: 2 rows (Wool beanie x 2 = 41.00 USD; Rain jacket x 2 = 178.00 USD)',
    );
    const table = await readFile(join(dir, 'gaps.yaml'), 'utf8');
    expect(table).toMatch(/^# Generated by droidcheck coverage on \S+ from first\/report\.json\n/);
    expect(table).toContain('with the prices of shop.policy.yaml');
    const [suite] = await loadSuites([join(dir, 'gaps.yaml')]);
    expect(suite?.scenarios.map((s) => s.name)).toEqual(['buys 2 x Wool beanie', 'buys 2 x Rain jacket']);

    const covered = await run(
      correct,
      'covered',
      ['suite.yaml', 'gaps.yaml'],
      ['--threshold', 'coverage.products >= 100%'],
    );
    expect(covered.report.coverage?.products).toMatchObject({ covered: 3, total: 3, uncovered: [] });
    expect(covered.report.summary).toMatchObject({ failed: 0 });
    expect(covered.code, covered.stdout).toBe(passedExitCode(join(dir, 'covered')));

    const wrong = await run(await service(MISPRICED), 'wrong', ['suite.yaml', 'gaps.yaml']);
    expect(wrong.code, wrong.stdout).toBe(1);
    const failed = wrong.report.scenarios.filter((s) => !s.passed);
    expect(new Set(failed.map((s) => s.name))).toEqual(new Set(['buys 2 x Wool beanie']));
    expect(failed[0]?.failures.map((f) => `${f.path} ${f.matcher}`)).toEqual(
      expect.arrayContaining([
        'shoppingCart.grandTotal money',
        'shoppingCart.products[0].unitPrice policy:catalogue-price',
      ]),
    );
  });
});
