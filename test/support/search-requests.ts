/**
 * The street-search requests the property tests generate (fast-check), as descriptions: search
 * terms (prefix mode too) and filter combinations built from a street list's own vocabulary, as
 * users type them and as attackers send them, pages and page sizes; and the name patterns of the
 * regular-expression property test. test/unit/search-index.test.ts checks their answers against a
 * plain scan, test/unit/streets-regex-property.test.ts against PostgreSQL, and the differential
 * run (test/tools/search-differential.ts) asks them of two versions of the code.
 */
import fc from "fast-check";
import type { FilterParameter } from "../../generator/contract/search/filter.ts";
import { DEFAULT_MAX_VALUE_LENGTH, exceedsLength } from "../../generator/contract/limits.ts";
import { regexPattern } from "./regex-arbitraries.ts";
import { filterValue, lastWord, searchTerm, type Vocabulary } from "./search-arbitraries.ts";
import { givenFilters } from "./search-scan.ts";

export interface SearchRequestStreet {
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
}

export type SearchRequest =
  | {
      readonly kind: "fts";
      readonly term: string;
      readonly prefix: boolean;
      readonly page: number;
      readonly pageSize: number;
    }
  | {
      readonly kind: "streets";
      readonly values: Partial<Record<FilterParameter, string>>;
      readonly page: number;
      readonly pageSize: number;
    };

/** The request path of a generated request. */
export function searchRequestTarget(r: SearchRequest): string {
  if (r.kind === "fts")
    return `/de/FullTextSearch?searchTerm=${encodeURIComponent(r.term)}${r.prefix ? "&lastWordPrefix=true" : ""}&page=${r.page}&pageSize=${r.pageSize}`;
  const given = givenFilters(r.values);
  return `/de/Streets?${given.map(([p, value]) => `${p}=${encodeURIComponent(value)}`).join("&")}&page=${r.page}&pageSize=${r.pageSize}`;
}

export function searchRequests(
  streets: readonly SearchRequestStreet[],
  v: Vocabulary,
): fc.Arbitrary<SearchRequest> {
  const page = fc.oneof(
    { weight: 4, arbitrary: fc.constant(1) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 30 }) },
  );
  const size = fc.oneof(
    { weight: 2, arbitrary: fc.constant(50) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 50 }) },
  );
  const withPrefix = fc.tuple(searchTerm(v), lastWord(v)).map(([t, w]) => `${t} ${w}`);
  /** A Streets request of the given filter values, on a drawn page and page size. */
  const streetsPaged = (values: fc.Arbitrary<Partial<Record<FilterParameter, string>>>) =>
    fc
      .tuple(values, page, size)
      .map(([values, p, s]) => ({ kind: "streets", values, page: p, pageSize: s }) as const);
  const filter = (values: readonly string[]) =>
    fc.option(filterValue(values), { nil: undefined, freq: 2 });
  // As users type them: words of a real street with its locality or postal code, the last word cut short.
  const street = fc.constantFrom(...streets);
  const words = (s: SearchRequestStreet) => s.name.split(/[\s-]+/).filter((w) => w.length > 2);
  const realistic = fc
    .tuple(street, fc.nat(3), fc.nat(8), fc.boolean())
    .map(([s, how, cut, prefix]) => {
      const [first = s.name, second = ""] = words(s);
      const place =
        how === 0
          ? s.postalCode
          : how === 1
            ? s.locality
            : how === 2
              ? `${s.postalCode} ${s.locality}`
              : "";
      const last = prefix
        ? Array.from(second || first)
            .slice(0, 2 + cut)
            .join("")
        : second;
      return { term: `${place} ${first} ${last}`.trim(), prefix };
    });
  const nameSlice = fc
    .tuple(street, fc.nat(20), fc.integer({ min: 1, max: 9 }), fc.nat(3))
    .map(([s, from, length, how]) => {
      const chars = Array.from(s.name);
      const start = from % chars.length;
      const text = chars
        .slice(start, start + length)
        .join("")
        .replace(/[.\\()[\]{}*+?|^$]/g, (ch) => `\\${ch}`);
      const name = start === 0 && how === 0 ? `^${text}` : text;
      return how === 1
        ? { name, postalCode: s.postalCode }
        : how === 2
          ? { name, locality: s.locality.slice(0, 4) }
          : how === 3
            ? { postalCode: `^${s.postalCode.slice(0, 3)}` }
            : { name };
    });
  // A name's start (`^Stra`): the lists of NAME_START and a prefix, exact or tested; in any case, to the end, beside a place.
  const namePrefix = fc
    .tuple(street, fc.integer({ min: 1, max: 12 }), fc.nat(2), fc.nat(3))
    .map(([s, length, casing, how]) => {
      const chars = Array.from(s.name);
      // With `$`: the whole name, or its first one or two characters (a list, never exact then).
      const upTo = how !== 3 ? length : length > 4 ? chars.length : 1 + (length % 2);
      const cut = chars.slice(0, upTo).join("");
      const text = casing === 0 ? cut : casing === 1 ? cut.toUpperCase() : cut.toLowerCase();
      const escaped = text.replace(/[.\\()[\]{}*+?|^$]/g, (ch) => `\\${ch}`);
      const end = how === 3 ? "$" : "";
      const name = `^${escaped}${end}`;
      return how === 1
        ? { name, postalCode: s.postalCode.slice(0, 2) }
        : how === 2
          ? { name, locality: Array.from(s.locality)[0] ?? "" }
          : { name };
    });
  // A name's end (`weg$`): the lists of a suffix and NAME_END, exact or tested; alone or beside a place.
  const nameSuffix = fc
    .tuple(street, fc.integer({ min: 1, max: 12 }), fc.nat(2), fc.nat(3))
    .map(([s, length, casing, how]) => {
      const chars = Array.from(s.name);
      const cut = chars.slice(Math.max(0, chars.length - length)).join("");
      const text = casing === 0 ? cut : casing === 1 ? cut.toUpperCase() : cut.toLowerCase();
      const name = `${text.replace(/[.\\()[\]{}*+?|^$]/g, (ch) => `\\${ch}`)}$`;
      return how === 1
        ? { name, postalCode: `${s.postalCode.slice(-1)}$` }
        : how === 2
          ? { name, locality: `${Array.from(s.locality).at(-1) ?? ""}$` }
          : { name };
    });
  // A common long name beside a postal-code prefix or a locality: counted from its place counts, its page merged from the places' lists.
  const commonBeside = fc
    .tuple(
      street,
      fc.constantFrom("straße", "STRASSE", "Straße", "platz", "stra", "weg", "allee"),
      fc.integer({ min: 1, max: 4 }),
      fc.boolean(),
    )
    .map(([s, name, digits, byCode]) =>
      byCode
        ? { name, postalCode: `^${s.postalCode.slice(0, digits)}` }
        : { name, locality: s.locality.slice(0, digits + 2) },
    );
  // A short name beside a one-character place filter: counted from the per-place n-gram counts (a name of up to three
  // characters), or its runs counted on the place filter's bitmap.
  const shortName = fc
    .tuple(street, fc.nat(20), fc.integer({ min: 1, max: 8 }), fc.nat(2), fc.boolean())
    .map(([s, from, length, how, upper]) => {
      const chars = Array.from(s.name);
      const start = from % chars.length;
      const text = chars.slice(start, start + length).join("");
      const name = (upper ? text.toUpperCase() : text.toLowerCase()).replace(
        /[.\\()[\]{}*+?|^$]/g,
        (ch) => `\\${ch}`,
      );
      return how === 0
        ? { name, postalCode: s.postalCode.slice(0, 1) }
        : how === 1
          ? { name, locality: Array.from(s.locality)[0] ?? "" }
          : { name, postalCode: s.postalCode.slice(-1), locality: s.locality.slice(-1) };
    });
  // Operators over real words (negations alone, phrases of whole names and localities, or): every branch of the list algebra.
  const operators = fc
    .tuple(street, street, fc.nat(12), fc.boolean())
    .map(([s, t, how, prefix]) => {
      const [w = s.name] = words(s);
      const [u = t.name] = words(t);
      const terms = [
        `-${w}`,
        `${w} -${s.locality}`,
        `"${s.locality}"`,
        `${w} or ${u}`,
        `"${s.name}" ${s.postalCode}`,
        `-${w} -${s.locality}`,
        `-${u} or ${s.locality} ${Array.from(w).slice(0, 2).join("")}`,
        // A phrase across the name's end and the place's start.
        `"${words(s).at(-1) ?? w} ${s.postalCode} ${s.locality}"`,
        // A city and a name's word in a phrase, either way round (decided by places where the name lacks the city).
        `"${s.locality} ${words(t).at(-1) ?? u}"`,
        `"${words(t).at(-1) ?? u} ${s.locality}"`,
        `"${s.locality} ${w}" ${t.locality}`,
        `"${words(s).at(-1) ?? w} ${s.postalCode}"`,
        `"${s.postalCode} ${s.locality} ${w}"`,
      ];
      return { term: terms[how] ?? w, prefix };
    });
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(operators, page, size)
        .map(
          ([{ term, prefix }, p, s]) =>
            ({ kind: "fts", term: term, prefix: prefix, page: p, pageSize: s }) as const,
        ),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(realistic, page, size)
        .map(
          ([{ term, prefix }, p, s]) =>
            ({ kind: "fts", term: term, prefix: prefix, page: p, pageSize: s }) as const,
        ),
    },
    {
      weight: 3,
      arbitrary: streetsPaged(nameSlice),
    },
    {
      weight: 2,
      arbitrary: streetsPaged(commonBeside),
    },
    {
      weight: 2,
      arbitrary: streetsPaged(namePrefix),
    },
    {
      weight: 2,
      arbitrary: streetsPaged(shortName),
    },
    {
      weight: 2,
      arbitrary: streetsPaged(nameSuffix),
    },
    {
      weight: 5,
      arbitrary: fc
        .tuple(searchTerm(v), page, size)
        .map(
          ([t, p, s]) => ({ kind: "fts", term: t, prefix: false, page: p, pageSize: s }) as const,
        ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(withPrefix, page, size)
        .map(
          ([t, p, s]) => ({ kind: "fts", term: t, prefix: true, page: p, pageSize: s }) as const,
        ),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(filter(v.names), filter(v.postalCodes), filter(v.localities), page, size)
        .map(
          ([name, postalCode, locality, p, s]) =>
            ({
              kind: "streets",
              values: {
                ...(name === undefined ? {} : { name }),
                ...(postalCode === undefined ? {} : { postalCode }),
                ...(locality === undefined ? {} : { locality }),
              },
              page: p,
              pageSize: s,
            }) as const,
        ),
    },
  );
}

/** A name pattern as users write one: pieces of names with a dot, a class, an alternation, `?` or `.*` among them. */
export function streetNamePattern(names: readonly string[]): fc.Arbitrary<string> {
  const piece = fc
    .constantFrom(...names)
    .chain((name) =>
      fc
        .tuple(fc.nat(name.length), fc.integer({ min: 2, max: 8 }))
        .map(([at, length]) => name.slice(at, at + length).replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")),
    );
  const joint = fc.constantFrom(".", ".*", "[ck]", "[a-zäöüß]", "(str|weg)", "e?", "\\s", "", "|");
  return (
    fc
      .oneof(
        fc.tuple(piece, joint, piece).map(([a, j, b]) => `${a}${j}${b}`),
        fc.tuple(piece, joint).map(([a, j]) => `^${a}${j === "|" ? "" : j}`),
        fc.tuple(piece, piece).map(([a, b]) => `(${a}|${b})`),
        regexPattern(names),
      )
      // Within the length limit: a longer value is a 400 before any matching (request-limits tests).
      .filter((p) => p.length > 0 && !exceedsLength(p, DEFAULT_MAX_VALUE_LENGTH))
  );
}

/** A name pattern of the regular-expression property test, every third with a postal-code pattern. */
export interface StreetPatternCase {
  readonly name: string;
  readonly code?: string;
}

/** The regular-expression property test's cases: `runs` name patterns, every third with a postal-code pattern. */
export function streetPatternCases(
  names: readonly string[],
  seed: number,
  runs: number,
): StreetPatternCase[] {
  const patterns = fc.sample(streetNamePattern(names), { seed, numRuns: runs });
  const codes = fc.sample(fc.constantFrom("^10", "^1[0-2]", "1(0|2)1", "^13.*5$", "0"), {
    seed: seed + 1,
    numRuns: runs,
  });
  return patterns.map((name, k) => {
    const code = k % 3 === 2 ? codes[k] : undefined;
    return code === undefined ? { name } : { name, code };
  });
}

/** A case's query string (without `?`). */
export const streetPatternQuery = ({ name, code }: StreetPatternCase): string =>
  `name=${encodeURIComponent(name)}${code === undefined ? "" : `&postalCode=${encodeURIComponent(code)}`}`;
