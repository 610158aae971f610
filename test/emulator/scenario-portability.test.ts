/**
 * The shipped scenarios assert nothing that only the emulator can satisfy: unless a scenario is
 * tagged `emulator-only`, every expectation and capture path names a field of the documented
 * contract tier (src/contract/contracts.ts) of the body it reads, never one of droidcheck's
 * own choices where the spec says "not shown" (docs/service-reference.md). A `send` step that
 * waits for the reply reads `reply.*` from the message-forwarding webhook (documented:
 * receiving-webhook.mdx); `intentWebhook.expect` reads the intent webhook (intent-webhook.mdx).
 *
 * Nor do they assume the demo shop unless tagged `demo-shop`: its catalogue, prices, intent names
 * and wording are each droid owner's configuration, so a portable scenario checks intents only as
 * a list, money only by its format, and no answer wording. Nor what the spec names without
 * promising: an intent in every answer (the list may be empty: a droid raises only the intents
 * its owner configured), the keys of an `ask` answer (spec 5: a prompt that asks for JSON gets
 * JSON text; the keys the prompt spells out are the AI's to follow or not). The starter that
 * `init` writes is scenarios/portable.yaml, word for word.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONTRACTS, type ContractName } from '../../src/contract/index.js';
import { CALL_ENDPOINTS } from '../../src/runner/steps.js';
import { STARTER_SUITE } from '../../src/scenario/index.js';

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
    while (def && ['optional', 'nullable', 'default', 'readonly'].includes(def.type))
      def = defOf((cur = def.innerType));
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
    const contract: ContractName =
      step.say !== undefined
        ? 'webhook'
        : step.status !== undefined
          ? 'error-body'
          : (CALL_ENDPOINTS as Record<string, ContractName>)[step.call ?? '']!;
    const paths = [...Object.keys(step.expect ?? {}), ...Object.values(step.capture ?? {})];
    // A send that waits: its body is { ...send response, reply: MessageForwarding | null }.
    const waits = step.call === 'send' && (step.waitForReply !== undefined || step.noReplyWithin !== undefined);
    const replyPaths = waits ? paths.filter((p) => p === 'reply' || p.startsWith('reply.')) : [];
    check(
      contract,
      paths.filter((p) => !replyPaths.includes(p)),
      where,
    );
    check(
      'message-webhook',
      replyPaths.filter((p) => p !== 'reply').map((p) => p.slice('reply.'.length)),
      `${where} reply`,
    );
    check('intent-webhook', Object.keys(step.intentWebhook?.expect ?? {}), `${where} intent webhook`);
  });
  return out;
}

/** Matchers that name a value the droid's owner configures, on intent lists. */
const NAME_MATCHERS = ['includes', 'equals', 'oneOf', 'contains'];
/** What a scenario asserts about the demo shop (catalogue, prices, intent names, wording), as "what: path". */
function demoShopAssertions(s: RawScenario): string[] {
  const out: string[] = [];
  const scan = (expect: Record<string, unknown> | undefined, where: string) => {
    for (const [path, m] of Object.entries(expect ?? {})) {
      const matchers = m !== null && typeof m === 'object' && !Array.isArray(m) ? Object.keys(m) : ['equals'];
      const isIntents = path === 'intents' || path === 'customerInsight.intents' || path === 'intent';
      if (isIntents && matchers.some((k) => NAME_MATCHERS.includes(k))) out.push(`${where}: ${path} (intent names)`);
      if (matchers.includes('money')) out.push(`${where}: ${path} (a price)`);
      if (
        path.startsWith('shoppingCart.products') ||
        path.startsWith('shopping_cart.products') ||
        path === 'customerInsight.product_keyword'
      ) {
        if (!matchers.every((k) => ['present', 'absent', 'minLength'].includes(k)))
          out.push(`${where}: ${path} (the catalogue)`);
      }
      if (
        (path === 'answer' || path === 'reply.content.value') &&
        matchers.some((k) => ['contains', 'icontains', 'matches', 'equals', 'similar'].includes(k))
      )
        out.push(`${where}: ${path} (wording)`);
    }
  };
  scan(s.expect, 'answer');
  (s.steps ?? []).forEach((step, i) => {
    if (step.call === undefined) scan(step.expect, `step ${i + 1}`);
    scan(step.intentWebhook?.expect, `step ${i + 1} intent webhook`);
  });
  return out;
}

/** A length matcher's value that requires at least one element (`minLength: 1`, `length: 2`, `length: { min: 1 }`). */
function requiresElements(matcher: string, value: unknown): boolean {
  if (matcher === 'minLength') return typeof value === 'number' && value > 0;
  if (matcher !== 'length') return false;
  if (typeof value === 'number') return value > 0;
  const min = (value as { min?: unknown } | null)?.min;
  return typeof min === 'number' && min > 0;
}

/** What a scenario asserts that the spec names but does not promise, as "what: path (why)". */
function unpromised(s: RawScenario): string[] {
  const out: string[] = [];
  const scan = (expect: Record<string, unknown> | undefined, where: string, ask: boolean) => {
    for (const [path, m] of Object.entries(expect ?? {})) {
      const matchers = m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
      const isIntents = path === 'intents' || path === 'customerInsight.intents';
      if (isIntents && Object.entries(matchers).some(([k, v]) => requiresElements(k, v)))
        out.push(`${where}: ${path} (an intent in every answer)`);
      const json = matchers.json;
      if (ask && path === 'answer' && json !== null && typeof json === 'object' && Object.keys(json).length > 0)
        out.push(`${where}: answer#${Object.keys(json).join(',')} (keys of the ask answer)`);
    }
  };
  scan(s.expect, 'answer', false);
  (s.steps ?? []).forEach((step, i) => {
    if (step.call === undefined || step.call === 'ask') scan(step.expect, `step ${i + 1}`, step.call === 'ask');
  });
  return out;
}

describe('shipped portable scenarios assert only what the spec promises', () => {
  for (const file of yamlFiles(ROOT)) {
    const suite = parse(readFileSync(file, 'utf8')) as { suite: string; scenarios: RawScenario[] };
    for (const s of suite.scenarios) {
      const tags = [s.tags ?? []].flat();
      if (tags.includes('demo-shop') || tags.includes('emulator-only')) continue;
      it(`${relative(ROOT, file)} / ${s.name}`, () => {
        expect(unpromised(s)).toEqual([]);
      });
    }
  }

  it('the check itself finds a required intent and the keys of an ask answer, and lets a list and JSON text pass', () => {
    const s: RawScenario = {
      name: 'x',
      expect: { intents: { minLength: 1 }, 'customerInsight.intents': { length: { min: 1 } } },
      steps: [
        { say: 'hi', expect: { intents: { present: true } } },
        { call: 'ask', expect: { answer: { json: { status: { oneOf: ['positive'] }, reason: { present: true } } } } },
        { call: 'ask', expect: { answer: { json: {} } } },
      ],
    };
    expect(unpromised(s)).toEqual([
      'answer: intents (an intent in every answer)',
      'answer: customerInsight.intents (an intent in every answer)',
      'step 2: answer#status,reason (keys of the ask answer)',
    ]);
  });
});

describe('shipped scenarios assume the demo shop only when tagged demo-shop', () => {
  const files = yamlFiles(ROOT);
  for (const file of files) {
    const suite = parse(readFileSync(file, 'utf8')) as { suite: string; scenarios: RawScenario[] };
    for (const s of suite.scenarios) {
      const tags = [s.tags ?? []].flat();
      if (tags.includes('demo-shop') || tags.includes('emulator-only')) continue;
      it(`${relative(ROOT, file)} / ${s.name}`, () => {
        expect(demoShopAssertions(s)).toEqual([]);
      });
    }
  }

  it('the check itself finds intent names, prices, catalogue lines and wording', () => {
    const s: RawScenario = {
      name: 'x',
      expect: {
        intents: { includes: 'purchase' },
        'shoppingCart.grandTotal': { money: '1.00 THB' },
        answer: { contains: 'Welcome' },
        'customerInsight.product_keyword': { includes: 'Silk scarf' },
      },
      steps: [{ say: 'hi', expect: { intents: { minLength: 1 }, 'shoppingCart.grandTotal': { matches: '^\\d' } } }],
    };
    expect(demoShopAssertions(s)).toEqual([
      'answer: intents (intent names)',
      'answer: shoppingCart.grandTotal (a price)',
      'answer: answer (wording)',
      'answer: customerInsight.product_keyword (the catalogue)',
    ]);
  });

  it('the starter init writes is scenarios/portable.yaml, and the portable scenarios are more than a handful', () => {
    expect(readFileSync(join(ROOT, 'portable.yaml'), 'utf8')).toBe(STARTER_SUITE);
    const all = files.flatMap((f) => (parse(readFileSync(f, 'utf8')) as { scenarios: RawScenario[] }).scenarios);
    const portable = all.filter((s) => ![s.tags ?? []].flat().some((t) => t === 'demo-shop' || t === 'emulator-only'));
    expect(portable.length).toBeGreaterThanOrEqual(8);
  });
});

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
    expect(
      choicePaths(
        send({ waitForReply: '30s', expect: { 'reply.type': 'ai', 'reply.content.value': 'x', reply: null } }),
      ),
    ).toEqual([]);
    expect(choicePaths(send({ noReplyWithin: '5s', capture: { m: 'reply.mid' } }))).toEqual([]);
    expect(choicePaths(send({ waitForReply: '30s', expect: { 'reply.surprise': 1, mid: 'x' } }))).toEqual([
      'step 1 (send): mid',
      'step 1 (send) reply: surprise',
    ]);
    expect(choicePaths(send({ expect: { 'reply.type': 'ai' } }))).toEqual(['step 1 (send): reply.type']);
    const say: RawScenario = {
      name: 'y',
      steps: [
        {
          say: 'hi',
          intentWebhook: {
            expect: { intent: 'purchase', 'shopping_cart.products.0.count': 2, 'shopping_cart.products.0.sku': 'x' },
          },
        },
      ],
    };
    expect(choicePaths(say)).toEqual(['step 1 (say) intent webhook: shopping_cart.products.0.sku']);
  });
});
