/**
 * Several jobs' coverage as one (`droidcheck merge` of shards): counts added, the quantities and
 * names united, each conversation counted once (by its id: a load's shards all run the same
 * stateless scenarios), and every share computed again on the sums (figures.ts). A part some
 * input lacks (products without a catalogue, rules without a policy) is left out of the merged
 * coverage, as a partial figure would read as the whole run's.
 */
import { FUNNEL_STAGES } from '../metrics/index.js';
import { funnelFigures, intentsFigures, productsFigures, ruleStatus, rulesFigures, serviceFigures } from './figures.js';
import {
  MAX_QUANTITIES,
  type CoverageSnapshot,
  type FunnelEntry,
  type FunnelStage,
  type IntentCoverage,
  type ProductCoverage,
  type RuleCoverage,
  type ServiceCoverage,
} from './types.js';

const every = <T>(list: readonly (T | undefined)[]): T[] | undefined =>
  list.length > 0 && list.every((x) => x !== undefined) ? (list as T[]) : undefined;

function mergeProducts(parts: NonNullable<CoverageSnapshot['products']>[]): CoverageSnapshot['products'] {
  const byName = new Map<string, ProductCoverage>();
  for (const part of parts)
    for (const p of part.byProduct) {
      const m = byName.get(p.name);
      if (!m) {
        byName.set(p.name, { ...p, quantities: [...p.quantities] });
        continue;
      }
      m.asked += p.asked;
      m.quoted += p.quoted;
      m.inCart += p.inCart;
      m.quantities = [...new Set([...m.quantities, ...p.quantities])].sort((a, b) => a - b).slice(0, MAX_QUANTITIES);
    }
  return productsFigures(
    [...byName.values()],
    parts.reduce((n, p) => n + p.unmatchedLines, 0),
  );
}

function mergeIntents(parts: CoverageSnapshot['intents'][]): CoverageSnapshot['intents'] {
  const byName = new Map<string, IntentCoverage>();
  for (const part of parts)
    for (const i of part.byIntent) {
      const m = byName.get(i.name);
      if (m) {
        m.answers += i.answers;
        m.declared ||= i.declared;
      } else byName.set(i.name, { ...i });
    }
  return intentsFigures(
    [...byName.values()],
    parts.reduce((n, p) => n + p.answers, 0),
  );
}

function mergeFunnel(parts: CoverageSnapshot['funnel'][]): CoverageSnapshot['funnel'] {
  const byId = new Map<string, { suite: string; reached: Set<FunnelStage> }>();
  for (const part of parts)
    for (const e of part.entries) {
      const m = byId.get(e.id);
      if (m) for (const s of e.reached) m.reached.add(s);
      else byId.set(e.id, { suite: e.suite, reached: new Set(e.reached) });
    }
  const entries: FunnelEntry[] = [...byId].map(([id, e]) => ({
    id,
    suite: e.suite,
    reached: FUNNEL_STAGES.filter((s) => e.reached.has(s)),
  }));
  return funnelFigures(entries);
}

function mergeRules(parts: NonNullable<CoverageSnapshot['rules']>[]): CoverageSnapshot['rules'] {
  const byRule = new Map<string, RuleCoverage & { on: boolean }>();
  for (const part of parts)
    for (const r of part.byRule) {
      const m = byRule.get(r.rule);
      if (!m) {
        byRule.set(r.rule, { ...r, reasons: { ...r.reasons }, on: r.status !== 'off' });
        continue;
      }
      m.held += r.held;
      m.broken += r.broken;
      m.undecided += r.undecided;
      m.notApplicable += r.notApplicable;
      m.on ||= r.status !== 'off';
      for (const [why, n] of Object.entries(r.reasons)) m.reasons[why] = (m.reasons[why] ?? 0) + n;
    }
  return rulesFigures([...byRule.values()].map(({ on, ...r }) => ({ ...r, status: ruleStatus(r, on) })));
}

function mergeService(parts: ServiceCoverage[]): ServiceCoverage {
  const calls = new Map<string, { calls: number; answered: number }>();
  for (const part of parts)
    for (const e of part.endpoints) {
      const m = calls.get(e.endpoint) ?? { calls: 0, answered: 0 };
      m.calls += e.calls;
      m.answered += e.answered;
      calls.set(e.endpoint, m);
    }
  const modes = {
    sync: parts.reduce((n, p) => n + p.modes.sync, 0),
    async: parts.reduce((n, p) => n + p.modes.async, 0),
  };
  const red = every(parts.map((p) => p.redteam));
  const ran = red ? [...new Set(red.flatMap((r) => r.ran))] : [];
  const skipped = red ? [...new Set(red.flatMap((r) => r.skipped))].filter((c) => !ran.includes(c)) : [];
  const notRun = red
    ? [...new Set(red.flatMap((r) => r.notRun))].filter((c) => !ran.includes(c) && !skipped.includes(c))
    : [];
  return serviceFigures(calls, modes, red && { ran, skipped, notRun });
}

/** The coverage of several jobs as one (see the module docs); undefined when any input has none. */
export function mergeCoverage(list: readonly (CoverageSnapshot | undefined)[]): CoverageSnapshot | undefined {
  const all = every(list);
  if (!all) return undefined;
  const products = every(all.map((c) => c.products));
  const rules = every(all.map((c) => c.rules));
  const shop = all[0]!.shop;
  return {
    ...(shop && all.every((c) => c.shop?.source === shop.source) && { shop }),
    ...(products && { products: mergeProducts(products) }),
    intents: mergeIntents(all.map((c) => c.intents)),
    funnel: mergeFunnel(all.map((c) => c.funnel)),
    ...(rules && { rules: mergeRules(rules) }),
    service: mergeService(all.map((c) => c.service)),
  };
}
