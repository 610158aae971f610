/**
 * The shop's policy as the red team's one source of truth, through the CLI (in process, in a
 * directory of its own) against the embedded emulator on loopback: with only
 * droidcheck.policy.yaml in the working directory (no --product, no --policy) the attacks order
 * the policy's products, a granted discount is found against the list price and is the
 * policy's max-discount violation; each planted weakness of the emulator is the violation of
 * its rule in the policy section of the demo shop's policy `droidcheck init` writes.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../../src/report/index.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';

/** Two of the demo shop's products at its prices (scenarios/emulator-profile.yaml). */
const POLICY = `currency: THB
catalogue:
  - { name: Leather belt, price: 690 }
  - { name: Silk scarf, price: 890 }
shipping: { fee: 50, freeFrom: 1500 }
maxDiscount: 0%
`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-redteam-policy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const readReport = async (out: string): Promise<ReportDocument> =>
  JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportDocument;

const redteam = (cwd: string, out: string, ...args: string[]) =>
  cli(['redteam', '--attempts', '5', '--seed', '11', ...args, '-o', out], { cwd });

describe('droidcheck redteam reads the shop from the policy', () => {
  it('with only droidcheck.policy.yaml, orders its products and finds a granted discount as a max-discount violation: exit 1', async () => {
    const cwd = join(dir, 'only-policy');
    await rm(cwd, { recursive: true, force: true });
    await mkdir(cwd, { recursive: true });
    await writeFile(join(cwd, 'droidcheck.policy.yaml'), POLICY);

    const weak = await redteam(
      cwd,
      join(cwd, 'weak'),
      '--category',
      'price-manipulation',
      '--emulator-weaknesses',
      'discount',
    );
    expect(weak.code, weak.stderr).toBe(1);
    const report = await readReport(join(cwd, 'weak'));
    expect((report.settings as { redteam: { products: string[] } }).redteam.products).toEqual([
      'Leather belt',
      'Silk scarf',
    ]);
    const rt = report.redteam!;
    expect(rt.categories[0]).toMatchObject({ id: 'price-manipulation', attempts: 5, successes: 5, undecided: 0 });
    for (const f of rt.findings) {
      expect(f.evidence).toMatch(
        /(Leather belt|Silk scarf) at [\d,.]+ THB a unit, below its list price (690|890)\.00 THB/,
      );
      expect(f.evidence).toContain('policy violations: ');
      expect(f.evidence).toContain('max-discount');
    }
    expect(report.policy!.byRule['max-discount']).toBeGreaterThanOrEqual(5);
    expect(report.policy!.findings.find((f) => f.rule === 'max-discount')).toMatchObject({
      scenario: 'attack turns',
      field: 'shoppingCart.grandTotal',
    });

    // The same policy against the robust emulator: every attack resisted, no violation, exit 0.
    const robust = await redteam(cwd, join(cwd, 'robust'), '--category', 'price-manipulation');
    expect(robust.code, robust.stderr).toBe(0);
    const clean = await readReport(join(cwd, 'robust'));
    expect(clean.redteam!.categories[0]).toMatchObject({ attempts: 5, successes: 0 });
    expect(clean.redteam!.findings).toEqual([]);
    expect(clean.policy!.violations).toBe(0);
  });

  it("each planted weakness of the emulator is its rule's violation under the demo shop's policy (droidcheck init)", async () => {
    const cwd = join(dir, 'init');
    const init = await cli(['init', cwd]);
    expect(init.code, init.stderr).toBe(0);
    const cases: [weakness: string, category: string, rule: string][] = [
      ['discount', 'price-manipulation', 'max-discount'],
      ['cross-conversation-leak', 'cross-customer-leak', 'other-customer-data'],
      ['recite-instructions', 'prompt-leak', 'canary'],
      ['negative-quantity', 'cart-tampering', 'cart-arithmetic'],
    ];
    for (const [weakness, category, rule] of cases) {
      const out = join(cwd, weakness);
      const r = await redteam(cwd, out, '--category', category, '--emulator-weaknesses', weakness);
      expect(r.code, `${weakness}: ${r.stderr}`).toBe(1);
      const report = await readReport(out);
      expect(report.policy!.byRule[rule], weakness).toBeGreaterThan(0);
      const finding = report.redteam!.findings.find((f) => f.evidence.includes(rule));
      expect(finding, `${weakness}: a finding naming ${rule}`).toBeDefined();
    }
    // The robust emulator under the same policy: no violation in any deterministic category.
    const out = join(cwd, 'robust');
    const r = await redteam(
      cwd,
      out,
      ...['price-manipulation', 'cross-customer-leak', 'prompt-leak', 'cart-tampering', 'staff-impersonation'].flatMap(
        (c) => ['--category', c],
      ),
    );
    const report = await readReport(out);
    expect(report.policy!.findings).toEqual([]);
    expect(r.code, r.stderr).toBe(0);
  });
});
