/**
 * A comparison (`droidcheck compare`) as Markdown and as a page of HTML, beside the terminal
 * text renderComparison gives: the same view (sections/comparison-view.ts) drawn by the
 * Markdown and HTML painters of view.ts, so the changed answers read as they do in a run's
 * summary.md and report.html (in HTML the two answers side by side). How the runs differ
 * (`not alike: ...`) comes first in each.
 */
import { htmlPage } from './html.js';
import { type Unlike, unlikeText } from './alike.js';
import type { ReportComparison } from './sections/comparison-schema.js';
import { comparisonView } from './sections/comparison-view.js';
import { escapeHtml, htmlSection, markdownLines } from './view.js';

/** The comparison as GitHub-flavoured Markdown: `## droidcheck compare`, the differences, the view. */
export function comparisonMarkdown(cmp: ReportComparison, unlike: readonly Unlike[], title: string): string {
  const lines = [`## ${title}`, ...(unlike.length > 0 ? ['', ...unlike.map((u) => `- ${unlikeText(u)}`)] : [])];
  return `${[...lines, ...markdownLines(comparisonView(cmp))].join('\n')}\n`;
}

/** The comparison as one self-contained HTML page. */
export function comparisonHtml(cmp: ReportComparison, unlike: readonly Unlike[], title: string): string {
  const notes = unlike.map((u) => `<p class="warn">${escapeHtml(unlikeText(u))}</p>`).join('\n');
  return htmlPage(title, `${notes}\n${htmlSection(comparisonView(cmp))}`);
}
