/**
 * What coverage a run lost or gained against a baseline (`droidcheck compare`, `--baseline`):
 * per part, covered of total in each, and by name what only one of them covered ("products 8/8
 * -> 6/8: Denim jacket, Tote bag no longer asked about"). Information, never a regression: a run
 * that covers less still judged every answer it got (a threshold on `coverage.*` is the gate).
 */
import { FUNNEL_STAGES } from '../metrics/index.js';
import type { CoverageSnapshot, FunnelStage } from './types.js';

/** One part in both runs: covered of total, and what only one of them covered. */
export interface CoverageDelta {
  base: { covered: number; total: number };
  current: { covered: number; total: number };
  /** Covered in the baseline, not in the current run. */
  lost: string[];
  /** Covered in the current run, not in the baseline. */
  gained: string[];
}

/** One stage of the funnel: conversations that reached it, of all conversations, in each run. */
interface FunnelDelta {
  stage: FunnelStage;
  base: { reached: number; conversations: number };
  current: { reached: number; conversations: number };
}

export interface CoverageComparison {
  /** The catalogue: asked about or in a cart. */
  products?: CoverageDelta;
  /** Products in a cart. */
  carts?: CoverageDelta;
  /** The policy's declared intents seen (both runs declare some), else the intents seen. */
  intents?: CoverageDelta;
  funnel: FunnelDelta[];
  /** The policy's rules decided at least once. */
  rules?: CoverageDelta;
  /** Endpoints with a call answered. */
  endpoints: CoverageDelta;
}

function delta(
  base: readonly string[],
  baseCovered: readonly string[],
  current: readonly string[],
  currentCovered: readonly string[],
): CoverageDelta {
  return {
    base: { covered: baseCovered.length, total: base.length },
    current: { covered: currentCovered.length, total: current.length },
    lost: baseCovered.filter((n) => !currentCovered.includes(n)),
    gained: currentCovered.filter((n) => !baseCovered.includes(n)),
  };
}

/** `current`'s coverage against `base`'s (see the module docs); undefined when either report has none. */
export function compareCoverage(
  base: CoverageSnapshot | undefined,
  current: CoverageSnapshot | undefined,
): CoverageComparison | undefined {
  if (!base || !current) return undefined;
  const out: CoverageComparison = {
    funnel: FUNNEL_STAGES.map((stage) => ({
      stage,
      base: { reached: base.funnel.stages[stage], conversations: base.funnel.conversations },
      current: { reached: current.funnel.stages[stage], conversations: current.funnel.conversations },
    })),
    endpoints: delta(
      base.service.endpoints.map((e) => e.endpoint),
      base.service.endpoints.filter((e) => e.answered > 0).map((e) => e.endpoint),
      current.service.endpoints.map((e) => e.endpoint),
      current.service.endpoints.filter((e) => e.answered > 0).map((e) => e.endpoint),
    ),
  };
  const bp = base.products;
  const cp = current.products;
  if (bp && cp) {
    const names = (p: typeof bp): string[] => p.byProduct.map((x) => x.name);
    const covered = (p: typeof bp): string[] =>
      p.byProduct.filter((x) => x.asked > 0 || x.inCart > 0).map((x) => x.name);
    const carted = (p: typeof bp): string[] => p.byProduct.filter((x) => x.inCart > 0).map((x) => x.name);
    out.products = delta(names(bp), covered(bp), names(cp), covered(cp));
    out.carts = delta(names(bp), carted(bp), names(cp), carted(cp));
  }
  const bd = base.intents.declared;
  const cd = current.intents.declared;
  const intentNames = (c: CoverageSnapshot, declaredOnly: boolean): string[] =>
    c.intents.byIntent.filter((i) => !declaredOnly || i.declared).map((i) => i.name);
  const seenNames = (c: CoverageSnapshot, declaredOnly: boolean): string[] =>
    c.intents.byIntent.filter((i) => (!declaredOnly || i.declared) && i.answers > 0).map((i) => i.name);
  const declaredOnly = bd !== undefined && cd !== undefined;
  if (declaredOnly || (bd === undefined && cd === undefined))
    out.intents = delta(
      intentNames(base, declaredOnly),
      seenNames(base, declaredOnly),
      intentNames(current, declaredOnly),
      seenNames(current, declaredOnly),
    );
  const br = base.rules;
  const cr = current.rules;
  if (br && cr) {
    const on = (r: typeof br): string[] => r.byRule.filter((x) => x.status !== 'off').map((x) => x.rule);
    const tested = (r: typeof br): string[] => r.byRule.filter((x) => x.status === 'tested').map((x) => x.rule);
    out.rules = delta(on(br), tested(br), on(cr), tested(cr));
  }
  return out;
}
