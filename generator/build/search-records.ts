import { csvRow } from "../contract/csv.ts";
import { jsonRecord } from "../contract/page.ts";
import { compareText, headJson } from "../contract/search/store.ts";
import type { AnyResource } from "../resources/resource.ts";
import { headKeysOf } from "./encode-streets.ts";
import { Interner } from "./search-lists.ts";
import { orderStreets } from "./street-order.ts";
import { tailClasses, type Street, type TailClasses } from "./street-tails.ts";

export type { Street } from "./street-tails.ts";

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
 * A Streets resource's records in its order (`sorted`: their indices, orderStreets) and split into
 * heads and places in that order (indexStreets), their tails classed once for both.
 */
export function numberStreets(
  resource: AnyResource,
  records: readonly Street[],
): { readonly sorted: number[]; readonly indexed: IndexedStreets } {
  const headKeys = headKeysOf(resource);
  if (headKeys === undefined)
    throw new Error(
      `${resource.id}: the CSV columns must start with plain properties up to the name`,
    );
  // Streets of one tail, found in the records' own order (their order in memory: in the sorted
  // order each comparison reads streets scattered over the heap, several times slower).
  const classes = tailClasses(records, headKeys, resource.id);
  // A name's streets ordered by their tails' ranks where the head is the name alone (street-order.ts).
  const sorted = orderStreets(resource, records, headKeys.length === 1 ? classes : undefined);
  return { sorted, indexed: indexStreets(resource, records, sorted, headKeys, classes) };
}

/**
 * Splits each of a Streets resource's records into its head (`headKeys`: the leading columns up to
 * the name; each record is checked to start with them, see tailClasses) and its place, in the
 * resource's order (`sorted`: the records' indices in that order).
 */
function indexStreets(
  resource: AnyResource,
  records: readonly Street[],
  sorted: readonly number[],
  headKeys: readonly string[],
  classes: TailClasses,
): IndexedStreets {
  const columns = resource.record.columns;
  const heads = new Interner();
  const headValues: (readonly string[])[] = [];
  const found: IndexPlace[] = [];
  const headOf = new Int32Array(sorted.length);
  const tailOf = new Int32Array(sorted.length);
  // The tails numbered in the sorted order, each rendered from its first street there.
  const tailOfClass = new Int32Array(classes.count).fill(-1);
  const valuesOf = (street: Street) => headKeys.map((key) => String(street[key] ?? ""));
  // Streets are read in the sorted order only where their head or tail is new: a name's streets
  // are told by the name's number (classes.name), not by reading each street's name.
  let previousName = -1;
  let previousHead = 0;
  for (let i = 0; i < sorted.length; i++) {
    const index = sorted[i] as number;
    const name = classes.name[index] as number;
    // Heads repeat in runs (a name's streets follow each other); Germany's head is the name alone.
    if (headKeys.length > 1 || name !== previousName) {
      const values = valuesOf(records[index] as Street);
      previousHead = heads.id(JSON.stringify(values));
      if (previousHead === headValues.length) headValues.push(values);
      previousName = name;
    }
    headOf[i] = previousHead;
    const tailClass = classes.of[index] as number;
    let tail = tailOfClass[tailClass] as number;
    if (tail === -1) {
      const street = records[index] as Street;
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
  }
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
  // A loop, not Array.from(headOf, …): that took half a second for the national list's 1.2 million.
  const byPosition = new Array<string>(headOf.length);
  for (let i = 0; i < headOf.length; i++) byPosition[i] = names[headOf[i] as number] ?? "";
  return byPosition;
}

const comparePlaces = (a: IndexPlace, b: IndexPlace) =>
  compareText(a.postalCode, b.postalCode) ||
  compareText(a.locality, b.locality) ||
  compareText(a.json, b.json);
