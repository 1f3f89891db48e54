/**
 * The views of a resource whose one selector every record gives one value of (a street's locality):
 * each record is in the view of its value alone. Grouped in two passes: each record's view is
 * found in the records' own order (their order in memory), then the records are placed in the
 * sorted order by that number alone. Read in the sorted order, each record lands somewhere else in
 * the heap: the national list's 1.2 million streets took seconds so (search-records.ts numbers
 * them the same way). Undefined when a record gives no value or several: views.ts groups those.
 *
 * `key`: the view key of a value (normalised); the records of each key in `sorted`'s order (the
 * records' indices; the records' own order without it).
 */
export function singleViews<R>(
  records: readonly R[],
  sorted: readonly number[] | undefined,
  value: (record: R) => string | readonly string[] | undefined,
  key: (value: string) => string,
): Map<string, R[]> | undefined {
  const viewOf = new Int32Array(records.length);
  // Values repeat (a locality's every street): each is keyed once.
  const byValue = new Map<string, number>();
  const byKey = new Map<string, number>();
  const lists: R[][] = [];
  for (let n = 0; n < records.length; n++) {
    const given = value(records[n] as R);
    if (typeof given !== "string") return undefined;
    let view = byValue.get(given);
    if (view === undefined) {
      const normalised = key(given);
      view = byKey.get(normalised);
      if (view === undefined) {
        view = lists.length;
        byKey.set(normalised, view);
        lists.push([]);
      }
      byValue.set(given, view);
    }
    viewOf[n] = view;
  }
  for (let n = 0; n < records.length; n++) {
    const index = sorted === undefined ? n : (sorted[n] as number);
    (lists[viewOf[index] as number] as R[]).push(records[index] as R);
  }
  return new Map([...byKey].map(([normalised, view]) => [normalised, lists[view] as R[]]));
}
