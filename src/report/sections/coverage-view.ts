/**
 * How the coverage section reads (coverage.ts computes it): the console's one line, chosen by
 * what a reader needs first; every table (products, funnel, intents, rules, the service) in
 * summary.md, report.html and `--verbose`; what a comparison says changed; JUnit's properties.
 */
import type {
  CoverageComparison,
  CoverageDelta,
  CoverageSnapshot,
  FunnelStage,
  ServiceCoverage,
} from '../../coverage/index.js';
import { FUNNEL_STAGES } from '../../metrics/index.js';
import { formatAmount } from '../../policy/index.js';
import { formatPercent } from '../../units.js';
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
export function headline(c: CoverageSnapshot, width = 90): (string | Span)[] {
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

export function coverageView(c: CoverageSnapshot): SectionView {
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

/** JUnit `<properties>`: each part's figure, what it did not cover, and the funnel's stages. */
export function coverageProperties(c: CoverageSnapshot): [string, string][] {
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
