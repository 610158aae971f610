/**
 * Reading report.json files back (`droidcheck compare`, `droidcheck merge`, `--baseline`):
 * read, JSON.parse, check the format's major version, then validate against the report's zod
 * schema (sections/index.ts; strict, so a field this droidcheck does not know is named, never
 * dropped).
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { REPORT_VERSION, reportDocumentSchema, type ReportDocument } from './sections/index.js';

/** The major version a report says it was written in, or undefined when it says none. */
function versionOf(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? (value as { version?: unknown }).version : undefined;
}

/**
 * Reads and validates the report at `path`. Throws UsageError (DROIDCHECK_ERR_USAGE, exit 2)
 * naming the file when it cannot be read, is not JSON, was written in another major version of
 * the report format (one sentence, no schema details), or is not a droidcheck report (with the
 * first offending paths).
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
  const version = versionOf(value);
  if (typeof version === 'number' && version !== REPORT_VERSION) {
    throw new UsageError(
      `${path}: written in report format ${version}, and this droidcheck reads format ${REPORT_VERSION} only; compare and merge reports written by droidcheck versions of one format`,
    );
  }
  const parsed = reportDocumentSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new UsageError(`${path}: not a droidcheck report (format ${REPORT_VERSION}): ${issues.join('; ')}`);
  }
  return parsed.data;
}

/** The baseline of `--baseline FILE`: {@link readReportFile} (same errors, the flag named). */
export function loadBaseline(path: string): Promise<ReportDocument> {
  return readReportFile(path).catch((err: unknown) => {
    throw err instanceof UsageError ? new UsageError(`--baseline ${err.message}`) : err;
  });
}
