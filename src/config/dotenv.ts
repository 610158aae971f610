/**
 * `.env` (so a token need not be exported in every shell): read at start from the working
 * directory, under the process environment (precedence: flags > environment > `.env` > config file
 * > defaults). Parsed by Node's own `util.parseEnv` (the dotenv format: KEY=value, quotes,
 * comments). A missing file is fine; an unreadable one is a UsageError (exit 2).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { UsageError } from '../errors.js';

const DOTENV_FILE = '.env';

/** The variables of `<dir>/.env` ({} when there is none). */
export function readDotenv(dir = process.cwd(), file = DOTENV_FILE): Record<string, string> {
  const path = join(dir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    throw new UsageError(`${path}: cannot read (${code ?? String(err)}); fix its permissions or remove it`);
  }
  return Object.fromEntries(
    Object.entries(parseEnv(text)).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/** `env` over the `.env` of `dir`: what is set in the environment wins. */
export function withDotenv(env: NodeJS.ProcessEnv, dir?: string): NodeJS.ProcessEnv {
  return { ...readDotenv(dir), ...env };
}
