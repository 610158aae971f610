/**
 * The shipped scenarios assert nothing that only the emulator can satisfy: unless a scenario is
 * tagged `emulator-only`, every expectation and capture path names a field of the documented
 * contract tier (src/contract/contracts.ts) of the body it reads, never one of droidcheck's
 * own choices where the spec says "not shown" (docs/service-reference.md). A `send` step that
 * waits for the reply reads `reply.*` from the message-forwarding webhook (documented:
 * receiving-webhook.mdx); `intentWebhook.expect` reads the intent webhook (intent-webhook.mdx).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONTRACTS, type ContractName } from '../../src/contract/index.js';
import { CALL_ENDPOINTS } from '../../src/runner/steps.js';

const ROOT = resolve(import.meta.dirname, '../../scenarios');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return yamlFiles(p);
    return /\.ya?ml$/.test(f) && f !== 'emulator-profile.yaml' ? [p] : [];
  });
}

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** True when every segment of `path` is a field (or list index) the schema names. */
function documented(schema: unknown, segments: string[]): boolean {
  let cur: unknown = schema;
  for (const seg of segments) {
    let def = defOf(cur);
    while (def && ['optional', 'nullable', 'default', 'readonly'].includes(def.type)) def = defOf((cur = def.innerType));
    if (!def) return false;
    if (def.type === 'object') {
      const shape = def.shape as Record<string, unknown>;
      if (!Object.hasOwn(shape, seg)) return false;
      cur = shape[seg];
    } else if (def.type === 'array' && /^\d+$/.test(seg)) {
      cur = def.element;
    } else if (def.type === 'record') {
      cur = def.valueType;
    } else return false; // unknown (not shown), a scalar, or a list element with no shape
  }
  return true;
}


interface RawStep {
  say?: string;
  call?: string;
  status?: number;
  waitForReply?: unknown;
  noReplyWithin?: unknown;
  expect?: Record<string, unknown>;
  capture?: Record<string, string>;
  intentWebhook?: { expect?: Record<string, unknown> };
}
interface RawScenario {
  name: string;
  tags?: string[] | string;
  expect?: Record<string, unknown>;
  steps?: RawStep[];
}

/** Paths a scenario reads that are not documented, as "what: path". */
function choicePaths(s: RawScenario): string[] {
  const out: string[] = [];
  const check = (contract: ContractName, paths: string[], where: string) => {
    for (const p of paths) if (!documented(CONTRACTS[contract].documented, p.split('.'))) out.push(`${where}: ${p}`);
  };
  check('webhook', Object.keys(s.expect ?? {}), 'answer');
  (s.steps ?? []).forEach((step, i) => {
    const where = `step ${i + 1} (${step.call ?? 'say'})`;
    const contract: ContractName = step.say !== undefined ? 'webhook' : step.status !== undefined ? 'error-body' : (CALL_ENDPOINTS as Record<string, ContractName>)[step.call ?? '']!;
    const paths = [...Object.keys(step.expect ?? {}), ...Object.values(step.capture ?? {})];
    // A send that waits: its body is { ...send response, reply: MessageForwarding | null }.
    const waits = step.call === 'send' && (step.waitForReply !== undefined || step.noReplyWithin !== undefined);
    const replyPaths = waits ? paths.filter((p) => p === 'reply' || p.startsWith('reply.')) : [];
    check(contract, paths.filter((p) => !replyPaths.includes(p)), where);
    check('message-webhook', replyPaths.filter((p) => p !== 'reply').map((p) => p.slice('reply.'.length)), `${where} reply`);
    check('intent-webhook', Object.keys(step.intentWebhook?.expect ?? {}), `${where} intent webhook`);
  });
  return out;
}

describe('shipped scenarios are portable unless tagged emulator-only', () => {
  const files = yamlFiles(ROOT);

  it('finds the suites and both kinds of scenario', () => {
    const all = files.flatMap((f) => (parse(readFileSync(f, 'utf8')) as { scenarios: RawScenario[] }).scenarios);
    const tagged = all.filter((s) => [s.tags ?? []].flat().includes('emulator-only'));
    expect(files.length).toBeGreaterThanOrEqual(7);
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.length).toBeLessThan(all.length / 4);
  });

  for (const file of files) {
    const suite = parse(readFileSync(file, 'utf8')) as { suite: string; scenarios: RawScenario[] };
    for (const s of suite.scenarios) {
      // emulator-only scenarios may read choices or seeded data (each says why in a comment).
      if ([s.tags ?? []].flat().includes('emulator-only')) continue;
      it(`${relative(ROOT, file)} / ${s.name}`, () => {
        expect(choicePaths(s)).toEqual([]);
      });
    }
  }

  it('the check itself tells documented paths from choices', () => {
    expect(documented(CONTRACTS.webhook.documented, 'shoppingCart.grandTotal'.split('.'))).toBe(true);
    expect(documented(CONTRACTS.webhook.documented, 'shoppingCart.products.0.count'.split('.'))).toBe(false);
    expect(documented(CONTRACTS.conversations.documented, 'conversations.0.alt'.split('.'))).toBe(true);
    expect(documented(CONTRACTS['get-image-alt'].documented, ['altText'])).toBe(false);
    expect(documented(CONTRACTS.send.documented, ['mid'])).toBe(false);
  });

  it('reads reply.* of a send that waits from the message webhook, and intentWebhook.expect from the intent webhook', () => {
    const send = (extra: Partial<RawStep>): RawScenario => ({ name: 'x', steps: [{ call: 'send', ...extra }] });
    expect(choicePaths(send({ waitForReply: '30s', expect: { 'reply.type': 'ai', 'reply.content.value': 'x', reply: null } }))).toEqual([]);
    expect(choicePaths(send({ noReplyWithin: '5s', capture: { m: 'reply.mid' } }))).toEqual([]);
    expect(choicePaths(send({ waitForReply: '30s', expect: { 'reply.surprise': 1, mid: 'x' } }))).toEqual(['step 1 (send): mid', 'step 1 (send) reply: surprise']);
    expect(choicePaths(send({ expect: { 'reply.type': 'ai' } }))).toEqual(['step 1 (send): reply.type']);
    const say: RawScenario = { name: 'y', steps: [{ say: 'hi', intentWebhook: { expect: { intent: 'purchase', 'shopping_cart.products.0.count': 2, 'shopping_cart.products.0.sku': 'x' } } }] };
    expect(choicePaths(say)).toEqual(['step 1 (say) intent webhook: shopping_cart.products.0.sku']);
  });
});
