/**
 * Binary min-heap of (deadline ms, key) in two parallel arrays: no object per entry. The key is a
 * requestId (answer waiters) or a waiter object (message and intent waiters).
 * Entries are removed lazily: the owner checks, when one pops, whether it is still current.
 */
export class DeadlineHeap<K = string> {
  readonly #at: number[] = [];
  readonly #ids: K[] = [];

  get size(): number {
    return this.#at.length;
  }

  /** Earliest deadline, or Infinity when empty. */
  peek(): number {
    return this.#at.length > 0 ? (this.#at[0] as number) : Infinity;
  }

  push(at: number, id: K): void {
    const a = this.#at;
    const ids = this.#ids;
    let i = a.length;
    a.push(at);
    ids.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pa = a[parent] as number;
      if (pa <= at) break;
      a[i] = pa;
      ids[i] = ids[parent] as K;
      i = parent;
    }
    a[i] = at;
    ids[i] = id;
  }

  /** Removes the earliest entry and returns its id (call only when size > 0; read peek() first). */
  pop(): K {
    const a = this.#at;
    const ids = this.#ids;
    const top = ids[0] as K;
    const lastAt = a.pop() as number;
    const lastId = ids.pop() as K;
    const n = a.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && (a[r] as number) < (a[l] as number) ? r : l;
      if ((a[c] as number) >= lastAt) break;
      a[i] = a[c] as number;
      ids[i] = ids[c] as K;
      i = c;
    }
    a[i] = lastAt;
    ids[i] = lastId;
    return top;
  }

  clear(): void {
    this.#at.length = 0;
    this.#ids.length = 0;
  }
}
