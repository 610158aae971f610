/**
 * `coverage`: what the job's suites reached and what they never touched (src/coverage,
 * docs/coverage.md): the shop's products (asked about, quoted, in a cart, at which counts), the
 * intents its answers reported (against the policy's declared ones), how far its conversations
 * got towards an order (the funnel, per job and per suite), which of the policy's rules were
 * decided, and which endpoints, answer modes and red-team categories ran. Information, never a
 * verdict: it fails nothing unless the user sets a `coverage.*` threshold (thresholds.ts reads
 * this section, which comes before it).
 *
 * Absent when the job sent no request. Shards merge by adding the counts and counting each
 * conversation once (coverage/merge.ts). The console shows one line; `--verbose`, summary.md and
 * report.html every table; JUnit carries the figures as `<properties>` of every suite.
 */
import { z } from 'zod';
import {
  mergeCoverage,
  type CoverageComparison,
  type CoverageDelta,
  type CoverageSnapshot,
  type FunnelStage,
  type ServiceCoverage,
} from '../../coverage/index.js';
import { FUNNEL_STAGES, type CoverageFigures } from '../../metrics/index.js';
import type { RedteamReportSection } from './redteam.js';
import { CATEGORY_IDS } from '../../redteam/index.js';
import { formatAmount } from '../../policy/index.js';
import { formatPercent } from '../../units.js';
import { defineSection } from '../section.js';
import {
  ansiPaint,
  consoleLines,
  plainPaint,
  plural,
  span,
  type SectionView,
  type Span,
  type Text,
  type ViewTable,
} from '../view.js';
import { count, obj, share, type Assert, type Same } from './common.js';

const stage = z.enum(FUNNEL_STAGES);
const stageCounts = obj(
  Object.fromEntries(FUNNEL_STAGES.map((s) => [s, count])) as Record<FunnelStage, typeof count>,
).describe('conversations that reached each stage');
const namedShare = {
  total: count,
  covered: count,
  share: share.nullable().describe('covered / total, 0..1; null when total is 0'),
  uncovered: z.array(z.string()).describe('what was not covered, by name'),
};

const coverageSchema = obj({
  shop: obj({
    source: z.string().describe("the policy file, or the embedded emulator's demo shop"),
    currency: z.string(),
  })
    .optional()
    .describe('where the catalogue and the declared intents come from; absent: the job had no shop to count against'),
  products: obj({
    ...namedShare,
    uncovered: z.array(z.string()).describe('products never asked about nor in a cart, in catalogue order'),
    inCart: count.describe('products that reached a cart'),
    unmatchedLines: count.describe('cart lines that named no product of the catalogue, or none droidcheck could read'),
    byProduct: z.array(
      obj({
        name: z.string(),
        price: z.number().nonnegative().describe("list price of one unit, in the shop's currency"),
        asked: count.describe('requests whose customer messages (the new one and the history sent with it) name it'),
        quoted: count.describe('answers whose text names it'),
        inCart: count.describe('answers whose cart holds a line of it'),
        quantities: z.array(z.number().int().positive()).describe('the counts of its cart lines, ascending'),
      }),
    ),
  })
    .optional()
    .describe('covered: asked about or in a cart; absent without a catalogue'),
  intents: obj({
    answers: count.describe('answers that reported an intents list'),
    byIntent: z.array(
      obj({
        name: z.string(),
        declared: z.boolean().describe("listed in the policy's intents:"),
        answers: count.describe('answers that reported it'),
      }),
    ),
    declared: obj(namedShare)
      .optional()
      .describe("the policy's declared intents seen in an answer; absent when it declares none"),
  }),
  funnel: obj({
    conversations: count,
    stages: stageCounts,
    bySuite: z.array(obj({ suite: z.string(), conversations: count, stages: stageCounts })),
    entries: z
      .array(obj({ id: z.string(), suite: z.string(), reached: z.array(stage) }))
      .describe('every conversation (a hash of its key) and the stages it reached: merged reports count each once'),
  }),
  rules: obj({
    ...namedShare,
    uncovered: z.array(z.string()).describe('rules the policy switches on that no answer decided (untested)'),
    byRule: z.array(
      obj({
        rule: z.string(),
        status: z.enum(['tested', 'untested', 'off']),
        held: count.describe('answers it decided and that kept it'),
        broken: count.describe('answers that broke it'),
        undecided: count.describe('answers it could not decide'),
        notApplicable: count.describe('answers holding nothing it judges (no cart, no text)'),
        reasons: z.record(z.string(), count).describe('why it could not decide, with the answers each'),
      }),
    ),
  })
    .optional()
    .describe('absent when no policy judged the answers'),
  service: obj({
    endpoints: z
      .array(obj({ endpoint: z.string(), calls: count, answered: count }))
      .describe('every endpoint of the specification'),
    exercised: count.describe('endpoints with a call answered'),
    unexercised: z.array(z.string()),
    modes: obj({ sync: count, async: count }).describe('answer turns sent per answer mode'),
    redteam: obj({ ran: z.array(z.string()), skipped: z.array(z.string()), notRun: z.array(z.string()) })
      .optional()
      .describe('redteam: the categories that ran, were skipped, or were not asked for'),
  }),
});
const _coverage: Assert<Same<z.output<typeof coverageSchema>, CoverageSnapshot>> = true;
void _coverage;

type Doc = { coverage?: CoverageSnapshot };

/** `5/8`. */
const of = (covered: number, total: number): string => `${covered}/${total}`;
/** `62.5%`, or `—` with nothing to cover. */
const pctOf = (s: number | null): string => (s === null ? '—' : formatPercent(s, 1));

/** The stages no conversation reached (all of them when there was no conversation). */
const unreached = (c: CoverageSnapshot): FunnelStage[] => FUNNEL_STAGES.filter((s) => c.funnel.stages[s] === 0);

/**
 * The one line: the headline of each part, as many as fit `width` columns (the console's 100
 * with the title), chosen by what a reader needs first (the products' figure, the stages no
 * conversation reached, the products never asked about, the intents, the rules, the endpoints)
 * and shown in the sections' order.
 */
function headline(c: CoverageSnapshot, width = 90): (string | Span)[] {
  const parts: { order: number; priority: number; text: string; tone?: 'warn' }[] = [];
  const p = c.products;
  if (p) {
    parts.push({ order: 0, priority: 0, text: `products ${of(p.covered, p.total)}, ${p.inCart} in a cart` });
    if (p.uncovered.length > 0)
      parts.push({ order: 1, priority: 2, text: `not asked: ${p.uncovered.join(', ')}`, tone: 'warn' });
  }
  const d = c.intents.declared;
  parts.push({
    order: 2,
    priority: 3,
    text: d ? `intents ${of(d.covered, d.total)}` : `${plural(c.intents.byIntent.length, 'intent')} seen`,
  });
  if (c.rules) parts.push({ order: 3, priority: 4, text: `rules ${of(c.rules.covered, c.rules.total)} decided` });
  parts.push({ order: 4, priority: 5, text: `endpoints ${of(c.service.exercised, c.service.endpoints.length)}` });
  const never = unreached(c);
  if (c.funnel.conversations > 0 && never.length > 0)
    parts.push({ order: 5, priority: 1, text: `never reached: ${never.join(', ')}`, tone: 'warn' });
  const red = c.service.redteam;
  if (red) {
    const all = red.ran.length + red.skipped.length + red.notRun.length;
    parts.push({ order: 6, priority: 1, text: `red-team categories ran ${of(red.ran.length, all)}` });
  }
  const chosen: typeof parts = [];
  let used = 0;
  for (const part of [...parts].sort((a, b) => a.priority - b.priority)) {
    const add = (chosen.length > 0 ? 3 : 0) + part.text.length;
    if (used + add > width) continue;
    chosen.push(part);
    used += add;
  }
  return chosen
    .sort((a, b) => a.order - b.order)
    .flatMap((part, i) => [...(i > 0 ? [' · '] : []), part.tone ? span(part.text, part.tone) : part.text]);
}

function productsTable(c: CoverageSnapshot): ViewTable[] {
  const p = c.products;
  if (!p || !c.shop) return [];
  const yes = (n: number): Text => (n > 0 ? String(n) : span('0', 'muted'));
  return [
    {
      caption: `Products (${of(p.covered, p.total)} covered, ${pctOf(p.share)}; ${p.inCart} in a cart)`,
      columns: [
        { header: 'product', align: 'l' },
        { header: 'price' },
        { header: 'asked' },
        { header: 'quoted' },
        { header: 'in a cart' },
        { header: 'quantities', align: 'l' },
        { header: 'covered', align: 'l' },
      ],
      rows: p.byProduct.map((x) => {
        const covered = x.asked > 0 || x.inCart > 0;
        return [
          x.name,
          formatAmount(x.price, c.shop!.currency),
          yes(x.asked),
          yes(x.quoted),
          yes(x.inCart),
          x.quantities.join(', '),
          covered ? span('✓', 'ok') : span('✗ never asked about', 'warn'),
        ];
      }),
    },
  ];
}

function funnelTables(c: CoverageSnapshot): ViewTable[] {
  const f = c.funnel;
  if (f.conversations === 0) return [];
  const cell = (n: number, of: number): Text => (n === 0 ? span('0', 'warn') : `${n} (${formatPercent(n / of, 0)})`);
  return [
    {
      caption: `Funnel (${plural(f.conversations, 'conversation')}: how far towards an order)`,
      columns: [
        { header: 'suite', align: 'l' },
        { header: 'conversations' },
        ...FUNNEL_STAGES.map((s) => ({ header: STAGE_HEADERS[s] })),
      ],
      rows: [
        [
          span('all', 'strong'),
          String(f.conversations),
          ...FUNNEL_STAGES.map((s) => cell(f.stages[s], f.conversations)),
        ],
        ...f.bySuite.map((s) => [
          s.suite,
          String(s.conversations),
          ...FUNNEL_STAGES.map((st) => cell(s.stages[st], s.conversations)),
        ]),
      ],
    },
  ];
}

/** Column headers of the funnel's stages. */
const STAGE_HEADERS: Record<FunnelStage, string> = {
  product: 'a product named',
  cart: 'a cart',
  total: 'a total',
  address: 'an address',
  contact: 'contact details',
};

function intentsTable(c: CoverageSnapshot): ViewTable[] {
  const i = c.intents;
  if (i.byIntent.length === 0) return [];
  const d = i.declared;
  return [
    {
      caption: d
        ? `Intents (${of(d.covered, d.total)} declared seen, ${pctOf(d.share)}; ${plural(i.answers, 'answer')} with a list)`
        : `Intents seen (the policy declares none; ${plural(i.answers, 'answer')} with a list)`,
      columns: [{ header: 'intent', align: 'l' }, { header: 'answers' }, { header: '', align: 'l' }],
      rows: i.byIntent.map((x) => [
        x.name,
        x.answers > 0 ? String(x.answers) : span('0', 'warn'),
        x.declared ? (x.answers > 0 ? span('✓', 'ok') : span('✗ never seen', 'warn')) : span('not declared', 'muted'),
      ]),
    },
  ];
}

function rulesTable(c: CoverageSnapshot): ViewTable[] {
  const r = c.rules;
  if (!r) return [];
  const reasons = (x: Record<string, number>): string =>
    Object.entries(x)
      .sort((a, b) => b[1] - a[1])
      .map(([why, n]) => `${why} ${n}`)
      .join('; ');
  return [
    {
      caption: `Policy rules (${of(r.covered, r.total)} decided on an answer, ${pctOf(r.share)})`,
      columns: [
        { header: 'rule', align: 'l' },
        { header: 'status', align: 'l' },
        { header: 'held' },
        { header: 'broken' },
        { header: 'undecided' },
        { header: 'not applicable' },
        { header: 'why undecided', align: 'l' },
      ],
      rows: r.byRule.map((x) => [
        x.rule,
        x.status === 'tested'
          ? span('tested', 'ok')
          : x.status === 'untested'
            ? span('untested', 'warn')
            : span('off', 'muted'),
        String(x.held),
        x.broken > 0 ? span(String(x.broken), 'fail') : '0',
        String(x.undecided),
        String(x.notApplicable),
        span(reasons(x.reasons), 'muted'),
      ]),
    },
  ];
}

function serviceTable(s: ServiceCoverage): ViewTable {
  return {
    caption: `Endpoints (${of(s.exercised, s.endpoints.length)} answered; answer turns: sync ${s.modes.sync}, async ${s.modes.async})`,
    columns: [{ header: 'endpoint', align: 'l' }, { header: 'calls' }, { header: 'answered' }],
    rows: s.endpoints.map((e) => [
      e.endpoint,
      String(e.calls),
      e.answered > 0 ? String(e.answered) : span('0', 'warn'),
    ]),
  };
}

function coverageNotes(c: CoverageSnapshot): Text[] {
  const notes: Text[] = [];
  if (c.shop) notes.push(span(`shop: ${c.shop.source}`, 'muted'));
  else notes.push(span('no shop to count products against: give a policy file with a catalogue (--policy)', 'muted'));
  if (c.products && c.products.unmatchedLines > 0)
    notes.push(
      span(
        `${plural(c.products.unmatchedLines, 'cart line')} named no product of the catalogue (or none droidcheck could read): counted as covering nothing`,
        'muted',
      ),
    );
  const modes = c.service.modes;
  if (modes.sync === 0 || modes.async === 0)
    notes.push(span(`answer mode never used: ${modes.sync === 0 ? 'sync' : 'async'}`, 'warn'));
  const red = c.service.redteam;
  if (red)
    notes.push(
      `red-team categories: ran ${red.ran.length > 0 ? red.ran.join(', ') : 'none'}${red.skipped.length > 0 ? `; skipped ${red.skipped.join(', ')}` : ''}${red.notRun.length > 0 ? `; not asked for ${red.notRun.join(', ')}` : ''}`,
    );
  return notes;
}

function coverageView(c: CoverageSnapshot): SectionView {
  return {
    id: 'coverage',
    title: 'Coverage',
    summary: headline(c, 160),
    tables: [...productsTable(c), ...funnelTables(c), ...intentsTable(c), ...rulesTable(c), serviceTable(c.service)],
    notes: coverageNotes(c),
  };
}

/** The coverage as the console draws it in full (`droidcheck coverage`, `--verbose`): the line, every table, the notes. */
export function coverageText(c: CoverageSnapshot, color = false): string {
  return consoleLines(coverageView(c), color ? ansiPaint : plainPaint)
    .slice(1)
    .join('\n');
}

/** The red team's categories: those that ran (an attempt decided, undecided or errored), were skipped, or were not asked for. */
function redteamCategories(r: RedteamReportSection): NonNullable<ServiceCoverage['redteam']> {
  const ran = r.categories
    .filter((c) => c.skipped === undefined && c.attempts + c.undecided + c.errors > 0)
    .map((c) => c.id);
  const skipped = r.categories.filter((c) => c.skipped !== undefined).map((c) => c.id);
  const listed = new Set(r.categories.map((c) => c.id));
  const notRun = [
    ...r.categories.filter((c) => c.skipped === undefined && !ran.includes(c.id)).map((c) => c.id),
    ...CATEGORY_IDS.filter((id) => !listed.has(id)),
  ];
  return { ran, skipped, notRun };
}

/**
 * What a comparison says of coverage (comparison-view.ts), a line per part that changed:
 * `coverage: products 8/8 -> 6/8: Denim jacket, Tote bag no longer asked about`; one line when
 * nothing did. Never a regression: said, not judged.
 */
export function coverageChangeNotes(c: CoverageComparison | undefined): Text[] {
  if (!c) return [];
  const lines: Text[] = [];
  const part = (what: string, d: CoverageDelta | undefined, lostVerb: string, gainedVerb: string): void => {
    if (!d) return;
    const figures = `${of(d.base.covered, d.base.total)} -> ${of(d.current.covered, d.current.total)}`;
    if (d.lost.length > 0) lines.push(span(`coverage: ${what} ${figures}: ${d.lost.join(', ')} ${lostVerb}`, 'warn'));
    if (d.gained.length > 0)
      lines.push(span(`coverage: ${what} ${figures}: ${d.gained.join(', ')} ${gainedVerb}`, 'ok'));
  };
  part('products', c.products, 'no longer asked about', 'now asked about');
  part('in a cart', c.carts, 'no longer in a cart', 'now in a cart');
  part('intents', c.intents, 'no longer seen', 'now seen');
  part('rules', c.rules, 'no longer decided', 'now decided');
  part('endpoints', c.endpoints, 'no longer answered', 'now answered');
  for (const f of c.funnel) {
    if (f.base.reached === f.current.reached) continue;
    const went = (x: { reached: number; conversations: number }): string => `${x.reached}/${x.conversations}`;
    lines.push(
      span(
        `coverage: funnel ${STAGE_HEADERS[f.stage]} ${went(f.base)} -> ${went(f.current)} conversations`,
        f.current.reached < f.base.reached ? 'warn' : 'ok',
      ),
    );
  }
  return lines.length > 0 ? lines : [span('coverage: nothing lost or gained', 'muted')];
}

/** The figures `coverage.*` thresholds read (metrics/thresholds.ts). */
export function coverageFigures(c: CoverageSnapshot | undefined): CoverageFigures | undefined {
  if (!c) return undefined;
  const suitesShort = Object.fromEntries(
    FUNNEL_STAGES.map((s) => [s, c.funnel.bySuite.filter((x) => x.stages[s] === 0).map((x) => x.suite)]),
  ) as Record<FunnelStage, string[]>;
  return {
    ...(c.products && { products: c.products }),
    ...(c.intents.declared && { intents: c.intents.declared }),
    ...(c.rules && { rules: c.rules }),
    funnel: { conversations: c.funnel.conversations, stages: c.funnel.stages, unreached: suitesShort },
  };
}

/** JUnit `<properties>`: each part's figure, what it did not cover, and the funnel's stages. */
function coverageProperties(c: CoverageSnapshot): [string, string][] {
  const props: [string, string][] = [];
  const part = (
    name: string,
    s: { covered: number; total: number; share: number | null; uncovered: string[] },
  ): void => {
    props.push([`coverage.${name}`, `${of(s.covered, s.total)} (${pctOf(s.share)})`]);
    if (s.uncovered.length > 0) props.push([`coverage.${name}.uncovered`, s.uncovered.join(', ')]);
  };
  if (c.products) part('products', c.products);
  if (c.intents.declared) part('intents', c.intents.declared);
  if (c.rules) part('rules', c.rules);
  for (const s of FUNNEL_STAGES)
    props.push([`coverage.funnel.${s}`, `${of(c.funnel.stages[s], c.funnel.conversations)} conversations`]);
  props.push([`coverage.endpoints`, `${of(c.service.exercised, c.service.endpoints.length)}`]);
  if (c.service.unexercised.length > 0)
    props.push(['coverage.endpoints.unexercised', c.service.unexercised.join(', ')]);
  props.push(['coverage.modes', `sync ${c.service.modes.sync}, async ${c.service.modes.async}`]);
  return props;
}

export const coverageSection = defineSection({
  name: 'coverage',
  fields: { coverage: coverageSchema.optional() },
  compute: (input: { coverage?: CoverageSnapshot; redteam?: RedteamReportSection }) => {
    if (!input.coverage) return {};
    const service = input.redteam
      ? { ...input.coverage.service, redteam: redteamCategories(input.redteam) }
      : input.coverage.service;
    return { coverage: { ...input.coverage, service } };
  },
  merge: (docs: readonly Doc[]) => {
    const coverage = mergeCoverage(docs.map((d) => d.coverage));
    return coverage ? { coverage } : {};
  },
  views: (d: Doc) => (d.coverage ? [coverageView(d.coverage)] : []),
  brief: (d: Doc) => (d.coverage ? [{ id: 'coverage', title: 'Coverage', summary: headline(d.coverage) }] : []),
  properties: (d: Doc) => (d.coverage ? coverageProperties(d.coverage) : []),
});
