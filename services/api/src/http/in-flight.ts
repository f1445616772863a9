/**
 * The replies a server has not finished, so a shutdown can mark them `Connection: close`
 * (main.ts). One `add` per request, undone when the reply closes.
 *
 * Not a `Set`: a Set that gains and loses an entry on every request rebuilds its hash table every
 * few dozen requests, and V8 leaves each replaced table linked to its successor (live iterators
 * follow that link), still holding the replies that were in it. Once one table had lived long
 * enough to be promoted to the old generation (a burst of allocation such as the first login's,
 * or a young generation grown large), each dead table kept the next one alive through every
 * minor GC, so every table — and the requests and replies in it — was promoted in turn until the
 * next full GC, which left the live table old and started the chain again. The API's scavenges
 * went from ~1 ms to 10–60 ms and its heap grew ~5 MB per scavenge (issue 21,
 * docs/performance.md). A doubly linked list whose removed entries drop their links keeps nothing
 * alive once a reply is done.
 */
interface Entry<T> {
  item: T | null;
  prev: Entry<T> | null;
  next: Entry<T> | null;
}

export class InFlight<T> {
  private head: Entry<T> | null = null;
  private count = 0;

  /** How many are in flight. */
  get size(): number {
    return this.count;
  }

  /** Adds `item`; the returned function removes it (again: no effect). */
  add(item: T): () => void {
    const entry: Entry<T> = { item, prev: null, next: this.head };
    if (this.head) this.head.prev = entry;
    this.head = entry;
    this.count++;
    return () => {
      if (entry.item === null) return;
      if (entry.prev) entry.prev.next = entry.next;
      else this.head = entry.next;
      if (entry.next) entry.next.prev = entry.prev;
      entry.item = null;
      entry.prev = null;
      entry.next = null;
      this.count--;
    };
  }

  /** The items in flight, newest first: a copy, so removing items while going through it is safe. */
  *[Symbol.iterator](): IterableIterator<T> {
    const items: T[] = [];
    for (let entry = this.head; entry; entry = entry.next) items.push(entry.item as T);
    yield* items;
  }
}
