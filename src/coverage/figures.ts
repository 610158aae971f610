/**
 * The derived figures of each part of the coverage (shares, what was not covered, the funnel's
 * counts) from its raw counts, computed in one place for a job's recorder (recorder.ts) and for
 * merged reports (merge.ts), so that a merged report says what one run over the same requests
 * would have said.
 */
import { ENDPOINT_NAMES } from '../contract/index.js';
import { FUNNEL_STAGES } from '../metrics/index.js';
import type {
  EndpointCoverage,
  FunnelCoverage,
  FunnelEntry,
  IntentCoverage,
  IntentsCoverage,
  NamedShare,
  ProductCoverage,
  ProductsCoverage,
  RuleCoverage,
  RulesCoverage,
  ServiceCoverage,
  StageCounts,
} from './types.js';

const shareOf = (covered: number, total: number): number | null => (total === 0 ? null : covered / total);

/** covered of `names`, those not covered by name, in order. */
function namedShare(names: readonly string[], covered: (name: string) => boolean): NamedShare {
  const uncovered = names.filter((n) => !covered(n));
  const n = names.length - uncovered.length;
  return { total: names.length, covered: n, share: shareOf(n, names.length), uncovered };
}

/** The catalogue's figures: covered = asked about or in a cart. */
export function productsFigures(byProduct: ProductCoverage[], unmatchedLines: number): ProductsCoverage {
  const share = namedShare(
    byProduct.map((p) => p.name),
    (name) => byProduct.some((p) => p.name === name && (p.asked > 0 || p.inCart > 0)),
  );
  return { ...share, inCart: byProduct.filter((p) => p.inCart > 0).length, unmatchedLines, byProduct };
}

/** The intents' figures: the declared ones first (their order), then the others by answers. */
export function intentsFigures(byIntent: readonly IntentCoverage[], answers: number): IntentsCoverage {
  const declared = byIntent.filter((i) => i.declared);
  const others = byIntent
    .filter((i) => !i.declared)
    .sort((a, b) => b.answers - a.answers || a.name.localeCompare(b.name));
  return {
    answers,
    byIntent: [...declared, ...others],
    ...(declared.length > 0 && {
      declared: namedShare(
        declared.map((i) => i.name),
        (name) => declared.some((i) => i.name === name && i.answers > 0),
      ),
    }),
  };
}

const zeroStages = (): StageCounts => Object.fromEntries(FUNNEL_STAGES.map((s) => [s, 0])) as StageCounts;

/** The funnel's counts, overall and per suite (suites in the order their first conversation came), from its conversations. */
export function funnelFigures(entries: FunnelEntry[]): FunnelCoverage {
  const stages = zeroStages();
  const bySuite = new Map<string, { suite: string; conversations: number; stages: StageCounts }>();
  for (const e of entries) {
    let s = bySuite.get(e.suite);
    if (!s) bySuite.set(e.suite, (s = { suite: e.suite, conversations: 0, stages: zeroStages() }));
    s.conversations++;
    for (const stage of e.reached) {
      stages[stage]++;
      s.stages[stage]++;
    }
  }
  return { conversations: entries.length, stages, bySuite: [...bySuite.values()], entries };
}

/** The rules' figures: tested = decided on at least one answer; the total counts the rules the policy switches on. */
export function rulesFigures(byRule: RuleCoverage[]): RulesCoverage {
  const on = byRule.filter((r) => r.status !== 'off');
  return {
    ...namedShare(
      on.map((r) => r.rule),
      (rule) => on.some((r) => r.rule === rule && r.status === 'tested'),
    ),
    byRule,
  };
}

/** A rule's status from its counts (`off` stays off). */
export const ruleStatus = (r: Pick<RuleCoverage, 'held' | 'broken'>, on: boolean): RuleCoverage['status'] =>
  !on ? 'off' : r.held + r.broken > 0 ? 'tested' : 'untested';

/** The service's figures: every endpoint of the specification, in its order, 0 when never called. */
export function serviceFigures(
  calls: ReadonlyMap<string, { calls: number; answered: number }>,
  modes: { sync: number; async: number },
  redteam?: ServiceCoverage['redteam'],
): ServiceCoverage {
  const endpoints: EndpointCoverage[] = ENDPOINT_NAMES.map((endpoint) => ({
    endpoint,
    calls: calls.get(endpoint)?.calls ?? 0,
    answered: calls.get(endpoint)?.answered ?? 0,
  }));
  const unexercised = endpoints.filter((e) => e.answered === 0).map((e) => e.endpoint);
  return {
    endpoints,
    exercised: endpoints.length - unexercised.length,
    unexercised,
    modes,
    ...(redteam && { redteam }),
  };
}
