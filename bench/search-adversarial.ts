/**
 * Street-search requests chosen to be expensive, built from a street file's own rows: the most
 * common words alone, in pairs and negated, 2-letter prefixes after common words and longer
 * prefixes of common words after cities (search as you type), one-letter filters and every combination of the three filters, one-letter
 * infix and suffix patterns (`e`, `e$`) in every combination of the filters, and deep pages. Run by
 * `npm run bench:search` beside the query mix (its ten most expensive printed), and in the tests
 * on the embedded Berlin streets, where each answer is compared with a plain scan.
 */
import { positionedLexemes } from "../generator/contract/postgres/lexize.ts";
import type { MixStreet, SearchRequest } from "./search-mix.ts";

export type AdversarialRequest =
  | {
      readonly class: string;
      readonly kind: "fts";
      readonly searchTerm: string;
      readonly prefix: boolean;
      readonly page?: number;
      readonly pageSize?: number;
    }
  | {
      readonly class: string;
      readonly kind: "streets";
      readonly name?: string;
      readonly postalCode?: string;
      readonly locality?: string;
      readonly page?: number;
      readonly pageSize?: number;
    };

/** A request of either mix as the path and query string the Worker is asked. */
export function requestPath(r: SearchRequest | AdversarialRequest): string {
  const q = new URLSearchParams();
  if (r.kind === "fts") {
    q.set("searchTerm", r.searchTerm);
    if (r.prefix) q.set("lastWordPrefix", "true");
  } else
    for (const p of ["name", "postalCode", "locality"] as const)
      if (r[p] !== undefined) q.set(p, r[p] ?? "");
  if ("page" in r && r.page !== undefined) q.set("page", String(r.page));
  if ("pageSize" in r && r.pageSize !== undefined) q.set("pageSize", String(r.pageSize));
  return `/de/${r.kind === "fts" ? "FullTextSearch" : "Streets"}?${q}`;
}

const wordsOf = (text: string) =>
  text
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length >= 3 && positionedLexemes(w).some((l) => l.lexeme !== null));

/** The requests, in a fixed order; `common` words and `localities` from the top of their frequency lists. */
export function adversarialMix(streets: readonly MixStreet[], common = 12): AdversarialRequest[] {
  const frequency = new Map<string, number>();
  const localities = new Map<string, number>();
  for (const s of streets) {
    for (const w of new Set(wordsOf(s.name))) frequency.set(w, (frequency.get(w) ?? 0) + 1);
    localities.set(s.locality, (localities.get(s.locality) ?? 0) + 1);
  }
  const top = (counts: Map<string, number>, n: number) =>
    [...counts]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, n)
      .map(([w]) => w);
  const words = top(frequency, common);
  const cities = top(localities, 4);
  const prefixes = [...new Set(top(frequency, 200).map((w) => w.slice(0, 2).toLowerCase()))].slice(
    0,
    24,
  );
  const out: AdversarialRequest[] = [];
  const fts = (klass: string, searchTerm: string, prefix = false, page?: number) =>
    out.push({
      class: klass,
      kind: "fts",
      searchTerm,
      prefix,
      ...(page === undefined ? {} : { page, pageSize: 50 }),
    });
  for (const w of words) {
    fts("adv: common word", w);
    fts("adv: negation", `-${w}`);
    fts("adv: negation, deep page", `-${w}`, false, 2000);
    for (const city of cities) {
      fts("adv: common word + city", `${w} ${city}`);
      fts("adv: common word - city", `${w} -${city}`);
      fts("adv: phrase", `"${city} ${w}"`);
    }
    for (const other of words.slice(0, 4))
      if (other !== w) fts("adv: common or common", `${w} or ${other}`);
    for (const prefix of prefixes)
      fts("adv: common word + 2-letter prefix", `${w} ${prefix}`, true);
  }
  for (const prefix of prefixes) fts("adv: 2-letter prefix alone", prefix, true);
  // A city beside a longer prefix of a very common word, as typed (`berlin straß`).
  for (const city of cities)
    for (const w of words.slice(0, 4))
      for (const length of [3, 4, 5])
        if (w.length > length)
          fts("adv: city + 3+-letter prefix", `${city} ${w.slice(0, length).toLowerCase()}`, true);
  for (const city of cities)
    fts("adv: city - city", `${city} -${cities.find((c) => c !== city) ?? city}`);
  const letters = [..."aeinrstu"];
  const digits = [..."0123456789"];
  const filters = (
    klass: string,
    values: { name?: string; postalCode?: string; locality?: string },
    page?: number,
  ) =>
    out.push({
      class: klass,
      kind: "streets",
      ...values,
      ...(page === undefined ? {} : { page, pageSize: 50 }),
    });
  for (const letter of letters) {
    filters("adv: one-letter name", { name: letter });
    filters("adv: one-letter name, deep page", { name: letter }, 5000);
    filters("adv: one-letter locality", { locality: letter });
    for (const digit of digits.slice(0, 3)) {
      filters("adv: one-letter name + postal code", { name: letter, postalCode: digit });
      filters("adv: one-letter name + locality + postal code", {
        name: letter,
        locality: letters[(letters.indexOf(letter) + 1) % letters.length] as string,
        postalCode: digit,
      });
    }
    for (const w of words.slice(0, 3))
      filters("adv: common name + one-letter locality", {
        name: w.toLowerCase(),
        locality: letter,
      });
  }
  for (const digit of digits) {
    filters("adv: one-digit postal code", { postalCode: digit });
    filters("adv: one-digit postal code, deep page", { postalCode: digit }, 2000);
    filters("adv: postal code prefix", { postalCode: `^${digit}` });
  }
  // Regular expressions: names planned on the n-gram lists (a dot, a class, an alternation, `?`,
  // `.*` between pieces of common words), names without usable n-grams (refused alone, answered
  // beside a narrow place filter), and postal-code and locality patterns over every place.
  for (const [i, w] of words.slice(0, 6).entries()) {
    const word = w.toLowerCase();
    const other = (words[(i + 1) % words.length] ?? w).toLowerCase();
    filters("adv: regex name, dot", { name: `${word.slice(0, -1)}.` });
    filters("adv: regex name, class", { name: `[ck]${word.slice(1)}` });
    filters("adv: regex name, alternation", { name: `(${word}|${other})` });
    filters("adv: regex name, optional", { name: `${word}e?$` });
    filters("adv: regex name, any run", { name: `^${word.slice(0, 3)}.*${other.slice(-3)}$` });
    filters("adv: regex name, deep page", { name: `(${word}|${other})` }, 200);
    for (const city of cities)
      filters("adv: regex name + city pattern", {
        name: `${word.slice(0, 4)}.*e`,
        locality: `^${city.slice(0, 3)}.*${city.slice(-1)}$`,
      });
  }
  for (const name of [".*", "\\d", "[ae]{2}", "(a|e)(i|n)", "^.{3}$", "[^x]+[^y]+z"]) {
    filters("adv: regex name without n-grams", { name });
    for (const digit of digits.slice(0, 3))
      filters("adv: regex name without n-grams + postal code", {
        name,
        postalCode: `^${digit}${digit}`,
      });
  }
  // One-letter infix (`e`) and suffix (`e$`) patterns in every combination of the three filters,
  // first page and a deep one: the name side and the place side as broad as they come.
  const combinations: ("name" | "locality" | "postalCode")[][] = [
    ["name"],
    ["locality"],
    ["postalCode"],
    ["name", "locality"],
    ["name", "postalCode"],
    ["locality", "postalCode"],
    ["name", "locality", "postalCode"],
  ];
  const few = ["e", "a", "n", "r"];
  for (const [k, letter] of few.entries())
    for (const combination of combinations)
      for (const suffix of [false, true])
        for (const page of [undefined, 400]) {
          const one = {
            name: letter,
            locality: few[(k + 1) % few.length] as string,
            postalCode: `${k + 1}`,
          };
          const values: { name?: string; postalCode?: string; locality?: string } = {};
          for (const p of combination) values[p] = suffix ? `${one[p]}$` : one[p];
          filters(
            `adv: one-letter ${suffix ? "suffix" : "infix"}, ${combination.join(" + ")}${page === undefined ? "" : ", deep page"}`,
            values,
            page,
          );
        }
  for (const postalCode of ["^1(0|2)", "[0-9]{5}", "9$", "^(0|1|2)[0-9]*1$"])
    filters("adv: regex postal code", { postalCode });
  for (const city of cities)
    filters("adv: regex locality", { locality: `(${city}|${cities[0] ?? city})` });
  return out;
}
