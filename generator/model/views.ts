import { createHash } from "node:crypto";
import { ALL_SLUG, normalizeFilterValue } from "../routes/files.ts";
import type { Resource } from "../resources/resource.ts";

/** The records one filter value selects, in API order, with the path segment they live under. */
export interface View<R> {
  /** Normalised filter value (what the Worker looks up); "" for an unfiltered resource. */
  readonly key: string;
  readonly slug: string;
  readonly records: readonly R[];
}

/** Groups a resource's records by normalised filter value and sorts each group. */
export function viewsOf<R>(resource: Resource<R>, records: readonly R[]): View<R>[] {
  const param = resource.requiredFilter?.param;
  const filterValue = resource.filterValue;
  const groups = new Map<string, R[]>();
  for (const record of records) {
    const key = param !== undefined && filterValue !== undefined ? normalizeFilterValue(filterValue(record, param)) : "";
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [record]);
    else group.push(record);
  }
  const keys = [...groups.keys()].sort();
  const slugs = assignSlugs(keys);
  return keys.map((key, i) => ({ key, slug: slugs[i] ?? ALL_SLUG, records: sortRecords(groups.get(key) ?? [], resource.sortKey) }));
}

export function sortRecords<R>(records: readonly R[], sortKey: (record: R) => string): R[] {
  const keyed = records.map((record) => ({ key: sortKey(record), record }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((entry) => entry.record);
}

/**
 * Readable, path-safe, unique slugs: `Frankfurt (Oder)` → `frankfurt-oder`. Values that fold to
 * the same slug get `-2`, `-3`, … in key order, so the mapping is deterministic; the index, not
 * the slug, is what the Worker matches on.
 */
export function assignSlugs(sortedKeys: readonly string[]): string[] {
  const used = new Set<string>();
  return sortedKeys.map((key) => {
    const base = key === "" ? ALL_SLUG : slugify(key);
    let slug = base;
    for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
    used.add(slug);
    return slug;
  });
}

export function slugify(value: string): string {
  const ascii = value
    .toLowerCase()
    .replace(/ä/g, "ae")
    .replace(/ö/g, "oe")
    .replace(/ü/g, "ue")
    .replace(/ß/g, "ss")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return ascii === "" ? "x" : ascii;
}

/** A short content hash of a view's records: part of every page's ETag, so it changes when the data does. */
export function contentHash(renderedRecords: readonly string[]): string {
  const hash = createHash("sha256");
  for (const record of renderedRecords) hash.update(record).update("\n");
  return hash.digest("hex").slice(0, 16);
}
