import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { keptTickObject } from '../src/tick-shape.js';

const run = promisify(execFile);
const BUILT = fileURLToPath(new URL('../dist/tick-shape.js', import.meta.url));
const LIBRARY = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/**
 * A fresh Node process that schedules ticks around three full collections made while no tick
 * object is alive (as during a large module graph's loading), then prints the inline-cache
 * states of process.nextTick's property definitions (V8's %DebugPrint, one word per site).
 */
async function nextTickCacheStates(pinFirst: boolean): Promise<string[]> {
  const script = `
${pinFirst ? `await import(${JSON.stringify(pathToFileURL(BUILT).href)});` : ''}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
for (let round = 0; round < 3; round++) {
  for (let i = 0; i < 10; i++) process.nextTick(() => {});
  await sleep(5);
  gc();
  await sleep(5);
}
for (let i = 0; i < 10; i++) process.nextTick(() => {}, i);
await sleep(5);
%DebugPrint(process.nextTick);
`;
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', '--allow-natives-syntax', '--input-type=module', '-e', script],
    { maxBuffer: 16 << 20, timeout: 20_000 },
  );
  return [...stdout.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1] as string);
}

describe('tick-shape: one tick object kept alive', () => {
  it('is the callback tick object of the process (after its first tick)', async () => {
    await new Promise((r) => process.nextTick(r));
    const kept = keptTickObject() as { callback?: unknown } | undefined;
    expect(typeof kept?.callback).toBe('function');
  });

  it("keeps process.nextTick's inline caches monomorphic through full collections", async (ctx) => {
    expect(existsSync(BUILT), `${BUILT} is missing: run "npm run build" first`).toBe(true);
    const [without, pinned] = await Promise.all([nextTickCacheStates(false), nextTickCacheStates(true)]);
    // Without the kept object, this Node's nextTick loses its shapes (22, 24 and 26 do); where it
    // does not, there is nothing to keep and nothing to assert.
    if (!without.includes('MEGAMORPHIC')) ctx.skip(`this Node's nextTick keeps its shapes: ${without.join(' ')}`);
    expect(pinned.length).toBeGreaterThanOrEqual(3);
    expect(pinned).not.toContain('MEGAMORPHIC');
  });

  it("is the CLI's: importing the library keeps none (no process-wide state on import)", async () => {
    expect(existsSync(LIBRARY), `${LIBRARY} is missing: run "npm run build" first`).toBe(true);
    // After the library and a tick, tick-shape is evaluated only now (its first tick not run yet),
    // unless the library had imported it: then its kept object is already there.
    const script = `
await import(${JSON.stringify(pathToFileURL(LIBRARY).href)});
await new Promise((r) => setImmediate(r));
const { keptTickObject } = await import(${JSON.stringify(pathToFileURL(BUILT).href)});
console.log(keptTickObject() === undefined ? 'none kept' : 'kept');
`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 });
    expect(stdout.trim()).toBe('none kept');
  });
});
