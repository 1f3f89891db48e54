import { csvRow } from "../contract/csv.ts";
import { jsonRecord } from "../contract/page.ts";
import { compareText, headJson } from "../contract/search/store.ts";
import { collationKey } from "../resources/collation.ts";
import type { AnyResource } from "../resources/resource.ts";
import { headKeysOf } from "./encode-streets.ts";
import { Interner } from "./search-lists.ts";
import { sortRecords } from "./views.ts";

export type Street = Readonly<Record<string, unknown>> & {
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
};

/** A place: the tail (the record after the head) that streets share, with its postal code and locality. */
export interface IndexPlace {
  readonly postalCode: string;
  readonly locality: string;
  readonly json: string;
  readonly csv: string;
}

/**
 * A country's streets as the index numbers them: positions (the resource's order), heads, places.
 * Plain arrays and typed arrays only, a few megabytes for a national list: it goes to the search
 * thread as it is (search-thread.ts), where the records themselves would be copied one by one.
 */
export interface IndexedStreets {
  /** The record properties of the head, the last `name`. */
  readonly headKeys: readonly string[];
  /** Each head's values, by head id. */
  readonly heads: readonly (readonly string[])[];
  readonly headOf: Int32Array;
  /** Sorted by postal code, locality and tail, so that places of a postal-code prefix are neighbours. */
  readonly places: readonly IndexPlace[];
  readonly placeOf: Int32Array;
}

/**
 * Splits each of a Streets resource's records into its head and its place, in the resource's order
 * (`sorted`: the records' indices in that order, `orderStreets`).
 */
export function indexStreets(
  resource: AnyResource,
  records: readonly Street[],
  sorted: readonly number[] = orderStreets(resource, records),
): IndexedStreets {
  // The head: the leading columns up to the name (each record is checked to start with them, see tailClasses).
  const columns = resource.record.columns;
  const headKeys = headKeysOf(resource);
  if (headKeys === undefined)
    throw new Error(
      `${resource.id}: the CSV columns must start with plain properties up to the name`,
    );

  const heads = new Interner();
  const headValues: (readonly string[])[] = [];
  const found: IndexPlace[] = [];
  const headOf = new Int32Array(sorted.length);
  const tailOf = new Int32Array(sorted.length);
  // Streets of one tail, found in the records' own order (their order in memory: in the sorted
  // order each comparison reads streets scattered over the heap, several times slower); numbered
  // as tails in the sorted order, each rendered from its first street there.
  const classes = tailClasses(records, headKeys, resource.id);
  const tailOfClass = new Int32Array(classes.count).fill(-1);
  const valuesOf = (street: Street) => headKeys.map((key) => String(street[key] ?? ""));
  let previousName: string | undefined;
  let previousHead = 0;
  sorted.forEach((index, i) => {
    const street = records[index] as Street;
    // Heads repeat in runs (a name's streets follow each other); Germany's head is the name alone.
    if (headKeys.length > 1 || street.name !== previousName) {
      const values = valuesOf(street);
      previousHead = heads.id(JSON.stringify(values));
      if (previousHead === headValues.length) headValues.push(values);
      previousName = street.name;
    }
    headOf[i] = previousHead;
    const tailClass = classes.of[index] ?? 0;
    let tail = tailOfClass[tailClass] ?? 0;
    if (tail === -1) {
      tail = tailOfClass[tailClass] = found.length;
      const head = headJson(headKeys, valuesOf(street));
      const json = jsonRecord(street);
      if (!json.startsWith(head))
        throw new Error(`${resource.id}: record ${i} does not start with its head ${head}`);
      found.push({
        postalCode: street.postalCode,
        locality: street.locality,
        json: json.slice(head.length),
        csv: csvRow(columns.slice(headKeys.length), street),
      });
    }
    tailOf[i] = tail;
  });
  const order = found
    .map((_, i) => i)
    .sort((a, b) => comparePlaces(found[a] as IndexPlace, found[b] as IndexPlace));
  const placeId = new Int32Array(order.length);
  order.forEach((tail, place) => (placeId[tail] = place));
  const placeOf = tailOf.map((tail) => placeId[tail] ?? 0);
  return {
    headKeys,
    heads: headValues,
    headOf,
    places: order.map((tail) => found[tail] as IndexPlace),
    placeOf,
  };
}

/** Each street's name, by position: the last value of its head. */
export function namesOf({ heads, headOf }: IndexedStreets): string[] {
  const names = heads.map((values) => values.at(-1) ?? "");
  return Array.from(headOf, (head) => names[head] ?? "");
}

/** A Streets resource's records in its order (its `sortKey`), as their indices. */
export function orderStreets(resource: AnyResource, records: readonly Street[]): number[] {
  return sortStreets(records, resource.sortKey as (s: Street) => readonly string[]);
}

/**
 * The streets in the resource's order, as their indices (ties in the records' order, as
 * `sortRecords` leaves them). Street orders start with the name's
 * collation key, so the distinct names are sorted once and only streets of one name are compared
 * by their whole key (a plain sort of a national list takes seconds); checked, with a plain sort
 * where it does not hold.
 */
function sortStreets(
  streets: readonly Street[],
  sortKey: (street: Street) => readonly string[],
): number[] {
  const keyOf = (index: number) => sortKey(streets[index] as Street);
  const byName = new Map<string, number[]>();
  streets.forEach((street, index) => {
    const group = byName.get(street.name);
    if (group === undefined) byName.set(street.name, [index]);
    else group.push(index);
  });
  const names = [...byName].map(([name, group]) => ({
    name,
    key: keyOf(group[0] ?? 0)[0] ?? "",
  }));
  if (names.some(({ name, key }) => key !== collationKey(name)))
    return sortRecords(
      streets.map((_, index) => index),
      keyOf,
    );
  names.sort((a, b) => compareText(a.key, b.key));
  return names.flatMap(({ name }) => {
    const group = byName.get(name) as number[];
    return group.length === 1 ? group : sortRecords(group, keyOf);
  });
}

/**
 * Which streets share a tail (`of`: a number per street, by index; `count` of them): streets of one
 * postal code and locality mostly share one, so each street is compared, property by property
 * (nested objects by identity: the model shares one object per municipality, district, state),
 * with the tails seen there before. A tail is rendered once, not once per street.
 */
function tailClasses(
  streets: readonly Street[],
  headKeys: readonly string[],
  resource: string,
): { readonly of: Int32Array; readonly count: number } {
  const seen = new Map<string, { readonly street: Street; readonly id: number }[]>();
  let count = 0;
  const sameTail = (a: Street, b: Street): boolean => {
    let properties = 0;
    for (const name in a) {
      properties++;
      if (!headKeys.includes(name) && a[name] !== b[name]) return false;
    }
    for (const _ in b) properties--;
    return properties === 0;
  };
  const classOf = (street: Street): number => {
    let i = 0;
    for (const name in street) {
      if (i === headKeys.length) break;
      if (name !== headKeys[i++])
        throw new Error(`${resource}: a record does not start with ${headKeys.join(", ")}`);
    }
    const key = `${street.postalCode}\u0000${street.locality}`;
    let tails = seen.get(key);
    if (tails === undefined) seen.set(key, (tails = []));
    for (const tail of tails) if (sameTail(tail.street, street)) return tail.id;
    tails.push({ street, id: count });
    return count++;
  };
  const of = Int32Array.from(streets, classOf);
  return { of, count };
}

const comparePlaces = (a: IndexPlace, b: IndexPlace) =>
  compareText(a.postalCode, b.postalCode) ||
  compareText(a.locality, b.locality) ||
  compareText(a.json, b.json);
