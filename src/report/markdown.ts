/**
 * Markdown summary of a ReportDocument (`summary.md`), also appended to the file named by
 * `$GITHUB_STEP_SUMMARY` when set (GitHub Actions job summary): the verdict, every section's
 * view (view.ts draws them alike for every format) and the failures, grouped.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { makeDir } from './make-dir.js';
import { join } from 'node:path';
import { formatLocation } from '../errors.js';
import { sectionViews } from './console.js';
import { formatValue } from './format-value.js';
import { groupFailures } from './failure-groups.js';
import { reportHeadline } from './headline.js';
import type { ReportDocument } from './sections/index.js';
import { markdownLines, markdownText, mdCell as cell, mdCode as code } from './view.js';

export const MARKDOWN_REPORT_FILE = 'summary.md';

export interface MarkdownOptions {
  /** Most groups of identical failures to list (default 50). */
  maxFailures?: number;
}

function failureLines(report: ReportDocument, max: number): string[] {
  const groups = groupFailures(report);
  if (groups.length === 0) return [];
  const lines = ['', '### Failures', ''];
  for (const g of groups.slice(0, max)) {
    const x = g.example;
    const count = g.entries.length > 1 ? ` ×${g.entries.length}` : '';
    lines.push(
      `- **${cell(`${x.suite} › ${x.name} [${x.mode}]`)}**${count} (${x.outcome}${x.requestId ? `, ${code(x.requestId)}` : ''})`,
    );
    if (x.error) lines.push(`  - ${code(x.error.code)}: ${cell(x.error.message)}`);
    for (const f of x.failures)
      lines.push(
        `  - ${code(f.path)} ${f.matcher}: expected ${code(formatValue(f.expected))}, actual ${code(formatValue(f.actual))} at ${code(formatLocation(f.location))}`,
      );
    for (const v of x.contractViolations)
      lines.push(`  - contract ${v.endpoint} ${code(v.path || '(body)')}: ${cell(v.message)}`);
    for (const j of x.judgeErrors ?? [])
      lines.push(`  - judge error: ${cell(j.message)} at ${code(formatLocation(j.location))}`);
  }
  if (groups.length > max) lines.push(`- … ${groups.length - max} more groups of identical failures`);
  return lines;
}

/** Renders `report` as GitHub-flavoured Markdown: the verdict, the failures, then every section's view. */
export function renderMarkdownSummary(report: ReportDocument, opts: MarkdownOptions = {}): string {
  const head = reportHeadline(report);
  const lines = [
    `## ${report.exitCode === 0 ? '✅' : '❌'} droidcheck ${report.kind}: ${head.verdict} (exit ${report.exitCode})`,
    '',
    head.sent,
    ...head.lines.flatMap((l) => ['', `**${markdownText(l)}**`]),
    ...failureLines(report, opts.maxFailures ?? 50),
    ...sectionViews(report).flatMap(markdownLines),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Writes `<dir>/<opts.fileName>` (default summary.md; mkdir -p) and appends the same text to `env.GITHUB_STEP_SUMMARY`
 * when set. Resolves the paths written.
 */
export async function writeMarkdownSummary(
  dir: string,
  report: ReportDocument,
  opts: MarkdownOptions & { env?: Record<string, string | undefined>; fileName?: string } = {},
): Promise<string[]> {
  const text = renderMarkdownSummary(report, opts);
  await makeDir(dir);
  const path = join(dir, opts.fileName ?? MARKDOWN_REPORT_FILE);
  await writeFile(path, text, 'utf8');
  const step = (opts.env ?? process.env).GITHUB_STEP_SUMMARY;
  if (!step) return [path];
  await appendFile(step, `${text}\n`, 'utf8');
  return [path, step];
}
