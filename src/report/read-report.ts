/**
 * Reading report.json files back (`droidcheck compare`, `droidcheck merge`, `--baseline`):
 * read, JSON.parse, then validate against the report's zod schema (report-schema.ts).
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import type { ReportDocument } from './report-document.js';
import { reportDocumentSchema } from './report-schema.js';

/**
 * Reads and validates the report at `path`. Throws UsageError (DROIDCHECK_ERR_USAGE, exit 2)
 * naming the file when it cannot be read, is not JSON, or is not a droidcheck report (version 1),
 * with the first offending paths.
 */
export async function readReportFile(path: string): Promise<ReportDocument> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`${path}: cannot read the report (${code}); pass the report.json a run wrote`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${path}: not JSON (${(err as Error).message}); pass the report.json a run wrote`);
  }
  const parsed = reportDocumentSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new UsageError(`${path}: not a droidcheck report (version 1): ${issues.join('; ')}`);
  }
  return parsed.data;
}

/** The baseline of `--baseline FILE`: {@link readReportFile} (same errors, the flag named). */
export function loadBaseline(path: string): Promise<ReportDocument> {
  return readReportFile(path).catch((err: unknown) => {
    throw err instanceof UsageError ? new UsageError(`--baseline ${err.message}`) : err;
  });
}
