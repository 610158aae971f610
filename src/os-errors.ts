/**
 * Where a user's value meets the operating system (a user's mistake, so exit 2 with a fix,
 * never a stack trace): a port already in use,
 * an address this machine does not have, a path that is a file where a directory is needed.
 * These are the user's mistakes, not droidcheck's: each is mapped here, at the boundary, to a
 * UsageError (DROIDCHECK_ERR_USAGE, exit 2) that names the flag and the value and says how to
 * fix it. Any other error is returned unchanged (a real bug stays exit 70).
 * Leaf module: imports only errors.ts.
 */
import { UsageError } from './errors.js';

/** A value the user gave and where (`--receiver-port`, `init <dir>`, `--report-dir`). */
export interface UserValue {
  flag: string;
  value: string | number;
}

function errnoCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Maps an error of `listen()` (node:net via Fastify) on `host`:`port` to a UsageError naming
 * the flag at fault: EADDRINUSE and EACCES blame the port, EADDRNOTAVAIL, ENOTFOUND and
 * EAI_AGAIN the host. Returns `err` unchanged for any other error.
 */
export function listenError(err: unknown, host: UserValue, port: UserValue): unknown {
  switch (errnoCode(err)) {
    case 'EADDRINUSE':
      return new UsageError(
        `${port.flag} ${port.value}: the port is already in use on ${host.value} (another droidcheck or another program); choose another port, or 0 for any free port`,
      );
    case 'EACCES':
      return new UsageError(
        `${port.flag} ${port.value}: permission denied to listen on this port (ports below 1024 need privileges); choose a port >= 1024, or 0 for any free port`,
      );
    case 'EADDRNOTAVAIL':
      return new UsageError(
        `${host.flag} ${host.value}: this machine has no such address; use 127.0.0.1 (loopback), 0.0.0.0 (every interface) or one of this machine's own addresses`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new UsageError(
        `${host.flag} ${host.value}: the host name does not resolve; use an IP address such as 127.0.0.1 or 0.0.0.0`,
      );
    default:
      return err;
  }
}

const PATH_PROBLEMS: Record<string, { read: string; write: string }> = {
  ENOENT: { read: 'no such file or directory', write: 'a folder on the way does not exist' },
  EISDIR: { read: 'is a directory; give a file', write: 'is a directory; give a file name' },
  ENOTDIR: {
    read: 'a part of the path is a file, not a directory',
    write: 'a part of the path is a file, not a directory',
  },
  EEXIST: { read: 'a file is in the way', write: 'a file is in the way where a directory is needed' },
  EACCES: {
    read: "permission denied; check the file's permissions",
    write: 'permission denied; choose a folder you may write to',
  },
  EPERM: { read: 'operation not permitted', write: 'operation not permitted; choose a folder you may write to' },
  EROFS: { read: 'read-only file system', write: 'read-only file system; choose a writable folder' },
  ENAMETOOLONG: { read: 'the path is too long', write: 'the path is too long' },
  ELOOP: { read: 'too many symbolic links', write: 'too many symbolic links' },
  ENOSPC: { read: 'no space left on the device', write: 'no space left on the device' },
};

/**
 * Maps a file-system error met while reading (`read`) or writing (`write`) the user's path to a
 * UsageError naming the flag and the path. Returns `err` unchanged for any other error.
 */
export function pathError(err: unknown, path: UserValue, op: 'read' | 'write'): unknown {
  const code = errnoCode(err);
  const problem = code !== undefined ? PATH_PROBLEMS[code] : undefined;
  if (!problem) return err;
  return new UsageError(`${path.flag} ${path.value}: cannot ${op} (${code}): ${problem[op]}`);
}
