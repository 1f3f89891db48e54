import { ALL_SLUG, normalizeSelectorValue, viewKey } from "../contract/address.ts";
import type { AnyResource, Resource, Selector } from "../resources/resource.ts";
import { pickRecords, type EncodedRecords } from "./encode.ts";
import { encoderOf, type RecordEncoder } from "./encode-streets.ts";
import { singleViews } from "./single-views.ts";
import { assignSlugs } from "./slugs.ts";

/** A resource's records grouped into views: what the build plans with and writes. */
export interface PreparedResource {
  readonly resource: AnyResource;
  /**
   * Records the API serves, each counted once: the records of the views that make up the whole
   * dataset (see `PreparedView.datasetPart`). A record no view selects (a district outside any
   * government region under `/de/GovernmentRegions/{key}/Districts`) is not served, so not counted.
   */
  readonly records: number;
  readonly views: readonly PreparedView[];
}

/** The records one tuple of selector values selects, in API order. */
export interface PreparedView {
  /** The index key (see `viewKey`): what the Worker looks up; "" for a resource without selectors. */
  readonly key: string;
  readonly slug: string;
  readonly count: number;
  /** The view's selector values as clients write them (the first record's spelling), for the downloads manifest. */
  readonly filter?: Readonly<Record<string, string>>;
  /**
   * The rendered records, encoded: rendered on first use and kept until `release`, so the plan and
   * the writing share one render. Kept as bytes, not strings: the plan renders every small view
   * before any is written, and as strings they held far more heap (docs/OPERATIONS.md, "Build memory").
   */
  encoded(): EncodedRecords;
  /**
   * The encoded records to write them once: `encoded()`'s when the view was rendered before, else
   * rendered into the encoder's reused buffers and not kept — valid until the next view is
   * rendered (no buffer of its own: a national build's views are hundreds of megabytes).
   */
  encodedOnce(): EncodedRecords;
  /**
   * The encoded records this view adds to the resource's whole dataset, so that the dataset holds
   * each record exactly once: none for a view that gives an optional filter (`/de/Localities`:
   * only the view of all localities counts); else the records the view holds under their own
   * (first) value of each selector — all of them, unless a selector gives a record several values
   * (an Austrian municipality is in the views of its district's key and of its code). `encoded`:
   * the view's records as the caller has them (`encodedOnce`); else `encoded()`'s.
   */
  datasetPart(encoded?: EncodedRecords): EncodedRecords | undefined;
  /** How many records `datasetPart` holds, known without rendering. */
  readonly datasetCount: number;
  /** Lets go of the rendered records and of the records themselves: the view is not rendered again. */
  release(): void;
  /** How often this view was rendered (once per build). */
  readonly renders: number;
}

/**
 * Groups a resource's records into views, each sorted in API order; with `sorted` (the records'
 * indices in the resource's order, ties in theirs: a Streets resource's search numbering) none is
 * sorted again.
 */
export function prepare<R>(
  resource: Resource<R>,
  records: readonly R[],
  sorted?: readonly number[],
): PreparedResource {
  const selectors = resource.selectors ?? [];
  const encode = encoderOf(resource as unknown as AnyResource);
  const views = viewsOf(resource, records, sorted).map((view) => {
    const first = view.records[0];
    const given = selectors.flatMap((s, i) => {
      const wanted = view.values[i];
      const value =
        wanted === undefined || first === undefined
          ? undefined
          : valuesOf(s, first).find((v) => normalizeSelectorValue(s.match, v) === wanted);
      return value === undefined ? [] : [[s.param, value] as const];
    });
    return new LazyView(
      encode,
      view,
      given.length === 0 ? undefined : Object.fromEntries(given),
      selectors.every((s, i) => s.in === "path" || s.required || view.values[i] === undefined),
    );
  });
  // The records the API serves, each once (a record no view selects is not served, so not counted).
  const served = views.reduce((sum, view) => sum + view.datasetCount, 0);
  return { resource: resource as unknown as AnyResource, records: served, views };
}

/** A selector's values of a record, its own first; none when it has none. */
function valuesOf<R>(selector: Selector<R>, record: R): readonly string[] {
  const value = selector.value(record);
  return value === undefined ? [] : typeof value === "string" ? [value] : value;
}

class LazyView<R> implements PreparedView {
  readonly key: string;
  readonly slug: string;
  readonly count: number;
  readonly filter?: Readonly<Record<string, string>>;
  readonly datasetCount: number;
  renders = 0;
  private memo: EncodedRecords | undefined;
  private view: View<R> | undefined;

  constructor(
    private readonly encode: RecordEncoder,
    view: View<R>,
    filter: Readonly<Record<string, string>> | undefined,
    private readonly inDataset: boolean,
  ) {
    this.view = view;
    this.key = view.key;
    this.slug = view.slug;
    this.count = view.records.length;
    this.datasetCount = inDataset ? this.count - view.secondary.size : 0;
    if (filter !== undefined) this.filter = filter;
  }

  encoded(): EncodedRecords {
    if (this.memo === undefined) {
      this.renders++;
      this.memo = this.encode(this.unreleased().records);
    }
    return this.memo;
  }

  encodedOnce(): EncodedRecords {
    if (this.memo !== undefined) return this.memo;
    this.renders++;
    return this.encode(this.unreleased().records, true);
  }

  datasetPart(encoded = this.encoded()): EncodedRecords | undefined {
    if (!this.inDataset) return undefined;
    const { records, secondary } = this.unreleased();
    return secondary.size === 0
      ? encoded
      : pickRecords(encoded, (i) => !secondary.has(records[i] as R));
  }

  /** A national build's records are freed view by view: the build holds none of its own then (emit.ts, `recordsRead`). */
  release(): void {
    this.memo = this.view = undefined;
  }

  private unreleased(): View<R> {
    if (this.view === undefined) throw new Error(`view ${this.key}: rendered after its release`);
    return this.view;
  }
}

/** The records one tuple of selector values selects, in API order, with the path segment they live under. */
export interface View<R> {
  readonly key: string;
  readonly slug: string;
  /** The normalised value of each selector, in selector order; `undefined`: not given in this view. */
  readonly values: readonly (string | undefined)[];
  readonly records: readonly R[];
  /** The records the view holds under another than their own (first) value of a selector (see `datasetPart`); mostly none. */
  readonly secondary: ReadonlySet<R>;
}

/**
 * Groups a resource's records into views and sorts each. Every record belongs to the view of its
 * selector values (of each of them, for a selector that gives several); with optional selectors,
 * also to the views where any of them is not given (`/de/Localities`: all, by postal code, by
 * name, by both). With `sorted` (see `prepare`) each view fills in order: as a stable sort gives it.
 */
export function viewsOf<R>(
  resource: Resource<R>,
  records: readonly R[],
  sorted?: readonly number[],
): View<R>[] {
  if (sorted !== undefined && sorted.length !== records.length)
    throw new Error(`${resource.id}: ${sorted.length} sorted of ${records.length} records`);
  const selectors = resource.selectors ?? [];
  const optional = selectors.flatMap((s, i) => (s.in === "query" && !s.required ? [i] : []));
  const masks = Array.from(
    { length: 2 ** optional.length },
    (_, mask) => new Set(optional.filter((_, bit) => (mask & (1 << bit)) !== 0)),
  );
  const groups = new Map<
    string,
    { slugSource: string; values: (string | undefined)[]; records: R[]; secondary: Set<R> }
  >();
  // Values repeat (a locality's every street): each is normalised once.
  const normalisers = selectors.map((s) => {
    const seen = new Map<string, string>();
    return (value: string) => {
      let result = seen.get(value);
      if (result === undefined) {
        result = normalizeSelectorValue(s.match, value);
        seen.set(value, result);
      }
      return result;
    };
  });
  const groupOf = (key: string, given: (string | undefined)[]) => {
    let group = groups.get(key);
    if (group === undefined)
      groups.set(
        key,
        (group = {
          slugSource: given.filter((v) => v !== undefined).join(" "),
          values: given,
          records: [],
          secondary: new Set(),
        }),
      );
    return group;
  };
  // One selector, always given (a street's locality): a record of one value is in that view only.
  const single = selectors.length === 1 && optional.length === 0 ? selectors[0] : undefined;
  const byValue =
    single === undefined
      ? undefined
      : singleViews(records, sorted, single.value, normalisers[0] ?? ((value: string) => value));
  for (const [value, list] of byValue ?? []) groupOf(viewKey([value]), [value]).records = list;
  // Otherwise (several or optional selectors, or several values): record by record.
  for (let n = 0; byValue === undefined && n < records.length; n++) {
    const record = records[sorted === undefined ? n : (sorted[n] as number)] as R;
    // Distinct normalised values per selector, the record's own first.
    const values = selectors.map((s, i) => {
      const normalise = normalisers[i] ?? ((value: string) => value);
      const normalised = valuesOf(s, record).map(normalise);
      return normalised.length <= 1 ? normalised : [...new Set(normalised)];
    });
    for (const absent of masks) {
      // A record without a value for a selector the view selects by is not in that view.
      const choices = values.map((list, i) => (absent.has(i) ? [undefined] : list));
      for (const { given, own } of combinations(choices)) {
        const group = groupOf(viewKey(given), given);
        group.records.push(record);
        if (!own) group.secondary.add(record);
      }
    }
  }
  const keys = [...groups.keys()].sort();
  const slugs = assignSlugs(keys.map((key) => groups.get(key)?.slugSource ?? ""));
  return keys.map((key, i) => {
    const group = groups.get(key);
    return {
      key,
      slug: slugs[i] ?? ALL_SLUG,
      values: group?.values ?? [],
      records:
        sorted === undefined
          ? sortRecords(group?.records ?? [], resource.sortKey)
          : (group?.records ?? []),
      secondary: group?.secondary ?? new Set(),
    };
  });
}

/** Every tuple taking one value per selector; `own` when each is the first (the record's own value). None when a selector has no value. */
function combinations(
  choices: readonly (readonly (string | undefined)[])[],
): { given: (string | undefined)[]; own: boolean }[] {
  // The common case, on the hot path of a national street list: one value per selector.
  if (choices.every((list) => list.length === 1))
    return [{ given: choices.map((list) => list[0]), own: true }];
  let tuples: { given: (string | undefined)[]; own: boolean }[] = [{ given: [], own: true }];
  for (const list of choices)
    tuples = tuples.flatMap((tuple) =>
      list.map((value, i) => ({ given: [...tuple.given, value], own: tuple.own && i === 0 })),
    );
  return tuples;
}

export function sortRecords<R>(
  records: readonly R[],
  sortKey: (record: R) => readonly string[],
): R[] {
  const keyed = records.map((record) => ({ key: sortKey(record), record }));
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  return keyed.map((entry) => entry.record);
}

/** Keys compare part by part; a part compares by code unit (`<`). */
export function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? "";
    const y = b[i] ?? "";
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
