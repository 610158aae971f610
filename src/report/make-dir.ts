/**
 * `makeDir(dir)`: `mkdir -p` in a bounded number of steps, for report directories.
 *
 * Why not `mkdir(dir, { recursive: true })`: on a pseudo-filesystem that refuses new entries with
 * ENOENT although the parent exists (`/proc/nope`), Node's recursive mkdir retries the parent for
 * ever, at full CPU, and the process no longer answers SIGINT or SIGTERM. Here the path is walked
 * up once to the nearest part that exists (at most one step per path segment), then each missing
 * folder is created with a plain mkdir: every failure is an error at once.
 *
 * Errors: the file system's own (`code` ENOTDIR, EACCES, EROFS, ...); a folder the file system
 * will not create although its parent exists is reported with code EPERM.
 */
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

const codeOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code;

/** An fs-like error with `code`, as the callers map codes (src/os-errors.ts) to user messages. */
function fsError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * The missing folders of `dir`, outermost first, and the nearest part that exists (a directory).
 * Throws ENOTDIR when a part that exists is not a directory.
 */
export async function missingParts(dir: string): Promise<{ existing: string; missing: string[] }> {
  const missing: string[] = [];
  let p = resolve(dir);
  for (;;) {
    const st = await stat(p).catch((err: unknown) => {
      if (codeOf(err) === 'ENOENT' && dirname(p) !== p) return undefined;
      throw err;
    });
    if (st === undefined) {
      missing.unshift(p);
      p = dirname(p);
      continue;
    }
    if (!st.isDirectory()) throw fsError(p === resolve(dir) ? 'EEXIST' : 'ENOTDIR', `${p} is not a directory`);
    return { existing: p, missing };
  }
}

/** Creates `dir` and the folders on the way (mkdir -p), each with one plain mkdir; see the module docs. */
export async function makeDir(dir: string): Promise<void> {
  const { missing } = await missingParts(dir);
  for (const folder of missing) {
    try {
      await mkdir(folder);
    } catch (err) {
      // Another process (a parallel shard) may have made it in between: that is success.
      if (codeOf(err) === 'EEXIST' && (await stat(folder).catch(() => undefined))?.isDirectory()) continue;
      // The parent exists (just checked or made), so ENOENT means the file system refuses new folders.
      if (codeOf(err) === 'ENOENT')
        throw fsError('EPERM', `${folder}: the file system does not accept new folders here`);
      throw err;
    }
  }
}
