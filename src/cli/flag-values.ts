/**
 * Checks of what the user typed that belong to the command line itself (every user mistake is
 * exit 2 with what, where and how to fix it, so a CI log says what to change): an empty value, a threshold or a
 * reporter name that the library rejects without knowing which flag it came from, and paths the
 * run will write to (checked before anything is sent, leaving no trace).
 * Every function throws UsageError (DROIDCHECK_ERR_USAGE) or the library's own DroidcheckError
 * with the flag's name in front; exit 2.
 */
import { constants } from 'node:fs';
import { access, mkdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { DroidcheckError, isDroidcheckError, UsageError } from '../errors.js';
import { parseThreshold } from '../metrics/index.js';
import { pathError } from '../os-errors.js';
import { createReporter, reporters } from '../report/index.js';
import { missingParts } from '../report/make-dir.js';

/**
 * A flag given with an empty value (`--tag ""`, `--judge-model=`) is a mistake, never "use the
 * default": commander's preAction hook calls this for the command about to run.
 */
export function rejectEmptyValues(command: Command): void {
  for (const option of command.options) {
    const key = option.attributeName();
    if (command.getOptionValueSource(key) === 'default' || command.getOptionValueSource(key) === undefined) continue;
    const value: unknown = command.getOptionValue(key);
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && v.trim() === '')) {
      throw new UsageError(
        `${option.long ?? option.flags}: the value is empty; give a value (${option.flags}) or leave the flag out`,
      );
    }
  }
}

/** Runs `fn`; a DroidcheckError it throws gets `flag: ` in front of its message when it lacks it. */
async function withFlag<T>(flag: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!isDroidcheckError(err) || err.message.includes(flag)) throw err;
    throw new DroidcheckError(err.code, `${flag}: ${err.message}`, err.exitCode, { cause: err });
  }
}

/** Every `--threshold` expression parses (ThresholdError naming the flag otherwise). */
export async function checkThresholds(expressions: readonly string[], flag = '--threshold'): Promise<void> {
  for (const expression of expressions) await withFlag(flag, () => parseThreshold(expression));
}

/** Every `--reporter` name is a known reporter (UsageError with a did-you-mean otherwise). */
export async function checkReporters(names: readonly string[], flag = '--reporter'): Promise<void> {
  for (const name of names) {
    if (!Object.hasOwn(reporters, name)) await withFlag(flag, () => createReporter(name, { outDir: '.' }));
  }
}

/**
 * `dir` can be created or written to: the nearest part of it that exists is a directory the
 * process may write to, and the file system really takes a new entry there. Permission bits do
 * not tell (root may "write" to /proc, which refuses every new folder), so a probe is made and
 * removed at once: a folder (the first missing one) or, when `dir` exists, a file. Leaves no trace.
 */
export async function checkWritableDir(dir: string, flag: string, shown: string = dir): Promise<void> {
  try {
    const { existing, missing } = await missingParts(dir);
    await access(existing, constants.W_OK);
    await probeWrite(existing, missing[0]);
  } catch (err) {
    throw pathError(err, { flag, value: shown }, 'write');
  }
}

/** Creates and removes `folder` (a missing child of `existing`), or a probe file in `existing`. */
async function probeWrite(existing: string, folder: string | undefined): Promise<void> {
  try {
    if (folder === undefined) {
      const probe = join(existing, `.droidcheck-probe-${process.pid}`);
      await writeFile(probe, '', { flag: 'wx' });
      await rm(probe, { force: true });
    } else {
      await mkdir(folder);
      await rmdir(folder).catch(() => undefined);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return; // made by another process meanwhile (a parallel shard)
    // `existing` is a directory, so ENOENT means a file system that takes no new entry (/proc, /sys).
    if (code === 'ENOENT') throw Object.assign(new Error(`${existing} takes no new entry`), { code: 'EPERM' });
    throw err;
  }
}

/** Reporters that write no file. */
const CONSOLE_ONLY = new Set(['console', 'progress']);

/**
 * The report directory and every `--output-file` path of a run can be written (checked before
 * anything is sent). `reportDirFlag` names where the directory came from.
 */
export async function checkReportPaths(
  reportDir: string,
  reporterNames: readonly string[],
  outputFile: Record<string, string> | undefined,
  reportDirFlag = '--report-dir',
): Promise<void> {
  const custom = outputFile ?? {};
  if (reporterNames.some((name) => !CONSOLE_ONLY.has(name) && custom[name] === undefined))
    await checkWritableDir(reportDir, reportDirFlag);
  for (const [name, path] of Object.entries(custom)) await checkWritableFile(path, `--output-file ${name}=`);
}

/** `file` can be written: it is not a directory, and its folder can be created or written to. */
export async function checkWritableFile(file: string, flag: string): Promise<void> {
  const st = await stat(file).catch(() => undefined);
  if (st?.isDirectory())
    throw pathError(Object.assign(new Error('is a directory'), { code: 'EISDIR' }), { flag, value: file }, 'write');
  await checkWritableDir(dirname(resolve(file)), flag, file);
}
