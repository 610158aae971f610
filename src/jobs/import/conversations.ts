/**
 * `importConversations(options, io)`: the library call behind `droidcheck import`: real
 * conversations become a regression suite (import.ts does the work). The checks here are the
 * ones a flag parser would do, made here so a script calling the library gets the same clear
 * UsageError (exit 2) as the command line instead of an HTTP error from the service.
 */
import { parseInteger } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import { runImport, type ImportIo, type ImportOptions, type ImportResult } from './import.js';

export type { ImportIo, ImportOptions, ImportResult };

/**
 * Imports (see import.ts for what a scenario holds). Throws UsageError (DROIDCHECK_ERR_USAGE,
 * exit 2) for a customer or droid id that is not a positive integer, a `turns` other than
 * all/last/conversation, a base URL that is not a URL, a threshold outside 0..1, a file that exists without
 * `force`; ConfigError (DROIDCHECK_ERR_CONFIG, exit 2) for a real target without droid id or
 * token, or a customer the service refuses.
 */
export function importConversations(options: ImportOptions, io: ImportIo): Promise<ImportResult> {
  if (options.turns !== undefined && !['all', 'last', 'conversation'].includes(options.turns))
    throw new UsageError(`--turns is all, last or conversation, not "${String(options.turns)}"`);
  for (const id of options.customers) parseInteger(id, '--customer', 1);
  if (options.droidId !== undefined) parseInteger(options.droidId, '--droid-id', 1);
  if (options.baseUrl !== undefined) {
    try {
      new URL(options.baseUrl);
    } catch {
      throw new UsageError(`--base-url: "${options.baseUrl}" is not a URL`);
    }
  }
  return runImport(options, io);
}
