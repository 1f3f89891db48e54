import { compareText } from "../contract/search/store.ts";
import { collationKey } from "../resources/collation.ts";
import type { AnyResource } from "../resources/resource.ts";
import type { Street, TailClasses } from "./street-tails.ts";
import { compareKeys, sortRecords } from "./views.ts";

type SortKey = (street: Street) => readonly string[];

/**
 * A Streets resource's records in its order (its `sortKey`), as their indices (ties in the records'
 * order, as `sortRecords` leaves them). Street orders start with the name's collation key, so the
 * distinct names are sorted once and only streets of one name are compared by their whole key (a
 * plain sort of a national list takes seconds); checked, with a plain sort where it does not hold.
 * With `tails` (the records' tail classes, street-tails.ts, of a resource whose head is the name
 * alone) a name's streets are ordered by their tails' ranks (tailRanks) instead of by each street's
 * key.
 */
export function orderStreets(
  resource: AnyResource,
  streets: readonly Street[],
  tails?: TailClasses,
): number[] {
  const sortKey = resource.sortKey as SortKey;
  const keyOf = (index: number) => sortKey(streets[index] as Street);
  const names = nameGroups(streets, tails).map((group) => {
    const first = group[0] ?? 0;
    return { name: (streets[first] as Street).name, key: keyOf(first)[0] ?? "", group };
  });
  if (names.some(({ name, key }) => key !== collationKey(name)))
    return sortRecords(
      streets.map((_, index) => index),
      keyOf,
    );
  names.sort((a, b) => compareText(a.key, b.key));
  const ranks = tails === undefined ? undefined : tailRanks(streets, sortKey, tails);
  return names.flatMap(({ group }) => {
    if (group.length === 1) return group;
    return ranks === undefined
      ? sortRecords(group, keyOf)
      : byRank(group, ranks, tails?.of as Int32Array);
  });
}

/** The streets of each name (indices, ascending), names in the order they first appear; from the tails' name numbers when given. */
function nameGroups(streets: readonly Street[], tails: TailClasses | undefined): number[][] {
  if (tails === undefined) {
    const byName = new Map<string, number[]>();
    streets.forEach((street, index) => {
      const group = byName.get(street.name);
      if (group === undefined) byName.set(street.name, [index]);
      else group.push(index);
    });
    return [...byName.values()];
  }
  const groups: number[][] = [];
  for (let index = 0; index < streets.length; index++)
    (groups[tails.name[index] as number] ??= []).push(index);
  return groups;
}

/**
 * Each tail's rank by the parts of the sort key after the name's (ties: the same rank), from its
 * first street's key: streets of one tail differ in their name alone, so within a name, streets
 * compare as their tails do (a key is computed once per tail, not once per street: the national
 * list has 1.2 million streets and 19,004 tails). Checked where a tail has streets of another name
 * than its first's: one of them must have the same parts after the name, else undefined (every
 * street keyed, as before).
 */
function tailRanks(
  streets: readonly Street[],
  sortKey: SortKey,
  tails: TailClasses,
): Int32Array | undefined {
  // The indices must fit a float64 beside a rank (byRank): well past any street list.
  if (streets.length > 2 ** 26) return undefined;
  const first = new Int32Array(tails.count).fill(-1);
  const checked = new Uint8Array(tails.count);
  const keys: (readonly string[])[] = [];
  for (let index = 0; index < streets.length; index++) {
    const tail = tails.of[index] as number;
    const own = first[tail] as number;
    if (own === -1) {
      first[tail] = index;
      keys[tail] = sortKey(streets[index] as Street).slice(1);
    } else if (checked[tail] === 0 && tails.name[index] !== tails.name[own]) {
      checked[tail] = 1;
      if (compareKeys(sortKey(streets[index] as Street).slice(1), keys[tail] ?? []) !== 0)
        return undefined;
    }
  }
  const order = keys
    .map((_, tail) => tail)
    .sort((a, b) => compareKeys(keys[a] ?? [], keys[b] ?? []));
  const ranks = new Int32Array(tails.count);
  order.forEach((tail, i) => {
    const before = order[i - 1];
    ranks[tail] =
      before !== undefined && compareKeys(keys[before] ?? [], keys[tail] ?? []) === 0
        ? (ranks[before] as number)
        : i;
  });
  return ranks;
}

/** A name's streets (indices, ascending) by their tails' ranks, ties in index order: as a stable sort by key leaves them. */
function byRank(group: readonly number[], ranks: Int32Array, tailOf: Int32Array): number[] {
  const size = tailOf.length;
  const keys = new Float64Array(group.length);
  for (let i = 0; i < group.length; i++) {
    const index = group[i] as number;
    keys[i] = (ranks[tailOf[index] as number] as number) * size + index;
  }
  keys.sort();
  const sorted = new Array<number>(keys.length);
  for (let i = 0; i < keys.length; i++) sorted[i] = (keys[i] as number) % size;
  return sorted;
}
