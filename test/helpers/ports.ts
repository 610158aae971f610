/**
 * Ports a test hands to another process before that process binds them: a receiver port the
 * emulator must post to, a redis-server's --port, a port that must stay closed.
 *
 * The rule: a server a test starts itself binds port 0 and reads its address (no race at all). A
 * port chosen *before* the server binds comes from freePort(), never from "bind port 0, close, hand
 * the number on": between that close and the child's bind, any parallel test's port-0 bind or
 * outgoing connection may take the same number, and the child then fails with EADDRINUSE, or the
 * emulator posts to someone else's server.
 *
 * freePort() hands out ports *below* Linux's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range,
 * 32768-60999 by default): the kernel gives those to no bind(0) and no connect(), so only another
 * caller of freePort() could take one. The range is split in blocks, one per vitest worker
 * (VITEST_POOL_ID, 1..maxWorkers), each worker walks its block from a random start (two vitest
 * runs side by side rarely meet) and never hands a port out twice, and each port is checked free
 * by binding it on 127.0.0.1 first (a service of the machine may hold it).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Blocks the range is split into: more than vitest's workers (4, vitest.config.ts). */
const BLOCKS = 16;
/** Ports below this are left to the machine's services (databases, dev servers: 5432, 8080...). */
const LOWEST = 10_000;

interface Block {
  first: number;
  size: number;
  next: number;
}
let block: Block | undefined;

/** The ephemeral range of this machine, [low, high]; Linux's default where it cannot be read. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low! <= high!) return [low!, high!];
  } catch {
    // not Linux: its default
  }
  return [32_768, 60_999];
}

/** This worker's block: the larger of the spans below and above the ephemeral range, split BLOCKS ways. */
function ownBlock(): Block {
  const [low, high] = ephemeralRange();
  const below = { from: LOWEST, to: low - 1 };
  const above = { from: high + 1, to: 65_535 };
  const span = below.to - below.from >= above.to - above.from ? below : above;
  const size = Math.floor((span.to - span.from + 1) / BLOCKS);
  if (size < 16) {
    throw new Error(
      `no room outside the ephemeral range ${low}-${high} for test ports; narrow net.ipv4.ip_local_port_range`,
    );
  }
  const worker = Number(process.env.VITEST_POOL_ID ?? process.pid);
  const first = span.from + ((Number.isInteger(worker) ? worker : 0) % BLOCKS) * size;
  return { first, size, next: Math.floor(Math.random() * size) };
}

/** Whether 127.0.0.1:`port` can be bound right now (closed again before this resolves). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * A port on 127.0.0.1 that is free, that no port-0 bind or outgoing connection on this machine
 * will take, and that this worker has not handed out before (see the file's comment for the rule).
 * Throws when the worker's whole block is taken.
 */
export async function freePort(): Promise<number> {
  block ??= ownBlock();
  for (let tried = 0; tried < block.size; tried++) {
    const port = block.first + (block.next++ % block.size);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port left in ${block.first}-${block.first + block.size - 1}`);
}
