/**
 * `writeJsonReport(dir, report)`: the ReportDocument as `<dir>/report.json`.
 */
import { writeFile } from 'node:fs/promises';
import { makeDir } from './make-dir.js';
import { join } from 'node:path';
import type { ReportDocument } from './sections/index.js';

export const JSON_REPORT_FILE = 'report.json';

/** Writes `<dir>/<fileName>` (default report.json; 2-space JSON), creating `dir` as needed; resolves the file's path. */
export async function writeJsonReport(
  dir: string,
  report: ReportDocument,
  fileName = JSON_REPORT_FILE,
): Promise<string> {
  await makeDir(dir);
  const path = join(dir, fileName);
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`, 'utf8');
  return path;
}
