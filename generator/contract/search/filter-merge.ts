/**
 * Entries [start, end) of the passing streets of disjoint lists (places' lists: a street has one
 * place) in street order: the lists merged by a heap on their next position, each popped
 * street's name tested (each distinct name once; every street passes without a filter), stopping
 * at the page's end: no list is sorted or searched whole.
 */
import { filterMatches, type StreetFilter } from "./filter.ts";
import type { Postings } from "./postings.ts";
import type { ListEntry } from "./store.ts";

export function passingInOrder(
  lists: readonly Postings[],
  filter: StreetFilter | undefined,
  start: number,
  end: number,
): ListEntry[] {
  // A binary heap of list numbers ordered by their next entry's position.
  const next = new Int32Array(lists.length);
  const heap: number[] = [];
  const at = (l: number) => (lists[l] as Postings).positions[next[l] as number] as number;
  const down = (from: number) => {
    for (let i = from; ;) {
      const [left, right] = [2 * i + 1, 2 * i + 2];
      let least = i;
      if (left < heap.length && at(heap[left] as number) < at(heap[least] as number)) least = left;
      if (right < heap.length && at(heap[right] as number) < at(heap[least] as number))
        least = right;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least] as number, heap[i] as number];
      i = least;
    }
  };
  lists.forEach((list, l) => {
    if (list.length > 0) heap.push(l);
  });
  for (let i = (heap.length >>> 1) - 1; i >= 0; i--) down(i);
  const byName = new Map<string, boolean>();
  const page: ListEntry[] = [];
  for (let passed = 0; passed < end && heap.length > 0;) {
    const l = heap[0] as number;
    const list = lists[l] as Postings;
    const i = next[l] as number;
    let passes = true;
    if (filter !== undefined) {
      const head = list.headOf(list.headRef(i));
      const value = head[head.length - 1] ?? "";
      const known = byName.get(value);
      passes = known ?? filterMatches(filter, value);
      if (known === undefined) byName.set(value, passes);
    }
    if (passes && passed++ >= start) page.push(list.entry(i));
    if (++next[l]! >= list.length) {
      heap[0] = heap[heap.length - 1] as number;
      heap.pop();
    }
    down(0);
  }
  return page;
}
