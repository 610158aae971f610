/**
 * CommonJS packages loaded at their first use instead of when the importing module loads (leaf
 * module). What a run needs only at its end or on request (the JUnit XML builder, the live
 * progress bar, the CSV parser of scenario rows, the word diff of answer changes) would
 * otherwise sit in every process's heap from its start, beside a load's pending requests
 * (docs/scale.md). `require` keeps the callers synchronous.
 */
import { createRequire } from 'node:module';

/**
 * A loader of `specifier`: the package is required the first time it is called, and its exports
 * returned every time.
 * @param specifier a package with a CommonJS entry (its `require` export condition or `main`)
 * @throws what `require` throws (MODULE_NOT_FOUND for a package not installed), at the first call
 */
export function lazyRequire<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= createRequire(import.meta.url)(specifier) as T;
    return loaded;
  };
}
