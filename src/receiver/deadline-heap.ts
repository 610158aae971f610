/**
 * Binary min-heap of (deadline ms, key) in two parallel arrays: no object per entry. The key is a
 * waiter object (answer, message and intent waiters).
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
    const top = this.#ids[0] as K;
    const lastAt = this.#at.pop() as number;
    const lastId = this.#ids.pop() as K;
    if (this.#at.length > 0) this.#siftDown(0, lastAt, lastId);
    return top;
  }

  clear(): void {
    this.#at.length = 0;
    this.#ids.length = 0;
  }

  /** The keys, in no particular order (a copy: the heap may change while it is walked). */
  keys(): K[] {
    return this.#ids.slice();
  }

  /** Keeps only the entries whose key passes `keep`, in O(size) (filtered in place, then heapified). */
  retain(keep: (key: K) => boolean): void {
    const a = this.#at;
    const ids = this.#ids;
    let n = 0;
    for (let i = 0; i < a.length; i++) {
      const id = ids[i] as K;
      if (!keep(id)) continue;
      a[n] = a[i] as number;
      ids[n] = id;
      n++;
    }
    a.length = n;
    ids.length = n;
    for (let i = (n >> 1) - 1; i >= 0; i--) this.#siftDown(i, a[i] as number, ids[i] as K);
  }

  /** Places (at, id) at `i` or below it, moving smaller children up. */
  #siftDown(start: number, at: number, id: K): void {
    const a = this.#at;
    const ids = this.#ids;
    const n = a.length;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && (a[r] as number) < (a[l] as number) ? r : l;
      if ((a[c] as number) >= at) break;
      a[i] = a[c] as number;
      ids[i] = ids[c] as K;
      i = c;
    }
    a[i] = at;
    ids[i] = id;
  }
}
