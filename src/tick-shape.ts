/**
 * Keeps one of Node's tick objects alive for the life of the process, so that the inline caches
 * of `process.nextTick` stay monomorphic. Imported for this side effect, first, by the CLI
 * (cli/main.ts) and the benchmarks; never by the library (index.ts), whose import changes no
 * process-wide state: a script that wants it imports `droidcheck/tick-shape` before droidcheck.
 *
 * Why: `process.nextTick` (Node 22, 24 and 26) builds each tick object with an object literal
 * whose first keys are symbols (`{[async_id_symbol]: ..., [trigger_async_id_symbol]: ...,
 * [async_context_frame]: ..., callback, args}`). V8 links the hidden classes such a literal
 * goes through weakly: a full garbage collection while no tick object is alive (usual while a
 * large module graph such as zod, Fastify and undici loads) drops them, the next tick object gets
 * new ones, and the literal's property definitions go megamorphic for the rest of the process:
 * every nextTick then defines its properties in V8's runtime, ~0.5 us each. An HTTP request
 * takes about five ticks (stream end, socket write, response finish), so this cost the receiver
 * ~6% of its CPU per webhook (bench/receiver.js). A tick object kept alive keeps its hidden class
 * and, through its back pointers, the whole chain: later tick objects take the same classes.
 *
 * How: inside a nextTick callback, `async_hooks.executionAsyncResource()` is that callback's tick
 * object (a public API; no async hook is installed). Until the callback runs, the queued tick
 * object itself holds the classes. What is kept is one small object, an empty callback and the
 * async context the import ran in (the importer's AsyncLocalStorage stores, usually none); on a
 * Node that builds tick objects another way, it is one harmless object.
 */
import { executionAsyncResource } from 'node:async_hooks';

let kept: object | undefined;

process.nextTick(() => {
  kept = executionAsyncResource();
});

/** The tick object kept (undefined until the first tick of the process has run). */
export function keptTickObject(): object | undefined {
  return kept;
}
