import { ALL_SLUG } from "../contract/address.ts";

/**
 * Readable, path-safe, unique slugs from the views' values in key order: `Frankfurt (Oder)` →
 * `frankfurt-oder`, "" → `_all`. Values that fold to the same slug get `-2`, `-3`, … in key order,
 * so the mapping is deterministic; the index, not the slug, is what the Worker matches on.
 */
export function assignSlugs(sources: readonly string[]): string[] {
  const used = new Set<string>();
  return sources.map((key) => {
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
