/**
 * The first lines the report files open with (summary.md, report.html): the verdict in the
 * job's own terms, what it sent and when, and the sections' own lines of the verdict (a
 * capacity's knee). Written once, so the formats say the same; the console prints the sections'
 * lines under its first line, and its last line is the job's (each job prints its own).
 */
import { notJudgedSummary } from '../metrics/index.js';
import { formatMs } from '../units.js';
import { countsRequests } from './sections/common.js';
import { SECTIONS, type ReportDocument } from './sections/index.js';
import { plural, type Text } from './view.js';

export interface Headline {
  /**
   * `12 passed, 1 failed, 2 thresholds breached` (`, 3 thresholds not judged: generator-bound`
   * when the latency figures are not trusted); webhook-policy: `measured` or `not measured`.
   */
  verdict: string;
  /**
   * `36 of 36 requests sent in 1.2 s, started <ISO 8601>; 0 submit retries.`; webhook-policy:
   * `4 probes, one async answer each, in 20.3 s, started <ISO 8601>.` (its probes are not tallied
   * as requests).
   */
  sent: string;
  /** The sections' lines of the verdict (section.ts `headline`: a capacity's knee), in the registry's order. */
  lines: Text[];
}

/** Every section's line of the verdict (section.ts `headline`), in the registry's order. */
function sectionLines(report: ReportDocument): Text[] {
  return SECTIONS.flatMap((s) => {
    const line = s.headline?.(report);
    return line === undefined ? [] : [line];
  });
}

export function reportHeadline(report: ReportDocument): Headline {
  const took = `in ${formatMs(report.durationMs)}, started ${report.startedAt}`;
  // Probes and no requests: a webhook-policy measurement (its probes are no tallied requests).
  if (!countsRequests(report) && report.webhookPolicy) {
    const probes = report.webhookPolicy.probes.length;
    return {
      verdict: report.exitCode === 0 ? 'measured' : 'not measured',
      sent: `${plural(probes, 'probe')}, one async answer each, ${took}.`,
      lines: sectionLines(report),
    };
  }
  const s = report.summary;
  const breached = report.thresholds.filter((t) => !t.passed).length;
  const notJudged = notJudgedSummary(report.thresholds);
  return {
    verdict: `${s.passed} passed, ${s.failed} failed${breached > 0 ? `, ${plural(breached, 'threshold')} breached` : ''}${notJudged ? `, ${notJudged}` : ''}`,
    sent: `${s.sent} of ${s.requests} requests sent ${took}; ${s.retries} submit retr${s.retries === 1 ? 'y' : 'ies'}.`,
    lines: sectionLines(report),
  };
}
