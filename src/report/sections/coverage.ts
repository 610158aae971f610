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
 * report.html every table; JUnit carries the figures as `<properties>` of every suite. The shape
 * is in coverage-schema.ts, how it reads in coverage-view.ts.
 */
import { mergeCoverage, type CoverageSnapshot, type FunnelStage, type ServiceCoverage } from '../../coverage/index.js';
import { FUNNEL_STAGES, type CoverageFigures } from '../../metrics/index.js';
import type { RedteamReportSection } from './redteam.js';
import { CATEGORY_IDS } from '../../redteam/index.js';
import { defineSection } from '../section.js';
import { coverageSchema } from './coverage-schema.js';
import { coverageProperties, coverageView, headline } from './coverage-view.js';

export { coverageChangeNotes, coverageText } from './coverage-view.js';

type Doc = { coverage?: CoverageSnapshot };

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
