/** droidcheck's version (package.json), the instrumentation scope's version of every span and metric. */
import { createRequire } from 'node:module';

export const TOOL_VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;
