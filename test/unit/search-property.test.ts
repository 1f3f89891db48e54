import type { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  filterMatches,
  FilterSyntaxError,
  parseStreetFilter,
  type FilterParameter,
} from "../../generator/contract/search/filter.ts";
import {
  lexemesOf,
  streetDocument,
  streetLexemes,
  type DocumentLexemes,
} from "../../generator/contract/postgres/lexize.ts";
import {
  formatQuery,
  lexemesOfQuery,
  matches,
  type SearchQuery,
} from "../../generator/contract/postgres/tsquery.ts";
import { parseSearchTerm, SearchTermError } from "../../generator/contract/postgres/websearch.ts";
import {
  filterValue,
  lastWord,
  searchTerm,
  vocabulary,
  type Vocabulary,
} from "../support/search-arbitraries.ts";
import {
  dataWords,
  searchStreets,
  tsvectorText,
  type SearchStreet,
} from "../support/search-data.ts";
import { column, startPostgres } from "../support/pglite.ts";

/**
 * The search semantics against PostgreSQL 17.5 itself (PGlite 0.4.6, set up as the original), on
 * the embedded Berlin streets and the OpenPLZ sample: the same tsvector for every street, the same
 * tsquery and the same set of matching streets for every generated search term (prefix mode too),
 * the same matching streets for every generated filter value.
 *
 * SEARCH_SEED=<n> replays a run; SEARCH_RUNS=<n> sets the number of terms and of filter values:
 * 2,000 by default (a fresh seed every run), 10,000 in the nightly. Each generated case costs
 * PostgreSQL (wasm) a scan of every street, about 0.6 s per hundred terms (load 6.5): the nightly's
 * larger sample is where a defect too rare for the pull request's sample is found.
 */
const seed = Number(process.env["SEARCH_SEED"] ?? Date.now() % 2 ** 31);
const runs = Number(process.env["SEARCH_RUNS"] ?? 2_000);
const BATCH = 250;
const SENTINEL = "qqsentinelqq";

let db: PGlite;
let streets: SearchStreet[];
let docs: DocumentLexemes[];
/** Lexeme → the streets (indices) whose documents hold it. */
let holding: Map<string, number[]>;
let v: Vocabulary;

beforeAll(async () => {
  console.log(`search property test: seed ${seed}, ${runs} runs (replay: SEARCH_SEED=${seed})`);
  db = await startPostgres();
  streets = await searchStreets();
  v = vocabulary(streets, dataWords());
  await db.exec(`CREATE TABLE streets (id int PRIMARY KEY, name text NOT NULL, postal_code text NOT NULL, locality text NOT NULL,
    vec tsvector GENERATED ALWAYS AS (to_tsvector('config_openplzapi', name || ' ' || postal_code || ' ' || locality)) STORED);
    CREATE INDEX streets_vec ON streets USING gin (vec);`);
  await db.query(
    "INSERT INTO streets (id, name, postal_code, locality) SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[])",
    [
      streets.map((s) => s.id),
      streets.map((s) => s.name),
      streets.map((s) => s.postalCode),
      streets.map((s) => s.locality),
    ],
  );
  docs = streets.map((s) => lexemesOf(streetDocument(s.name, s.postalCode, s.locality)));
  holding = new Map();
  docs.forEach((doc, i) => {
    for (const lexeme of doc.keys()) {
      const indices = holding.get(lexeme);
      if (indices === undefined) holding.set(lexeme, [i]);
      else indices.push(i);
    }
  });
});
afterAll(async () => {
  await db.close();
});

interface Mismatch {
  readonly input: string;
  readonly mine: string;
  readonly postgres: string;
}
function report(what: string, mismatches: Mismatch[]): void {
  const shortest = [...mismatches].sort((a, b) => a.input.length - b.input.length).slice(0, 5);
  expect(
    shortest,
    `${what}: ${mismatches.length} mismatches (seed ${seed}; replay: SEARCH_SEED=${seed})`,
  ).toEqual([]);
}

/** Per query (SQL for the tsquery from q.t): PostgreSQL's tsquery text and the streets it matches. */
async function postgresSearch(
  inputs: string[],
  tsquery: string,
): Promise<{ text: string; ids: number[] }[]> {
  const rows = await db.query<{ text: string; ids: number[] | null }>(
    `WITH q AS MATERIALIZED (SELECT o, ${tsquery} AS query FROM unnest($1::text[]) WITH ORDINALITY q(t, o))
     SELECT q.query::text AS text, (SELECT array_agg(s.id ORDER BY s.id) FROM streets s WHERE s.vec @@ q.query) AS ids FROM q ORDER BY q.o`,
    [inputs],
  );
  return rows.rows.map((r) => ({ text: r.text, ids: r.ids ?? [] }));
}
function compare(
  term: string,
  query: SearchQuery,
  pg: { text: string; ids: number[] } | undefined,
  mismatches: Mismatch[],
): void {
  const text = formatQuery(query);
  const ids = matchingIds(query);
  if (text !== pg?.text) mismatches.push({ input: term, mine: text, postgres: pg?.text ?? "" });
  else if (JSON.stringify(ids) !== JSON.stringify(pg.ids))
    mismatches.push({
      input: term,
      mine: `${ids.length} streets`,
      postgres: `${pg.ids.length} streets`,
    });
}
/**
 * The streets `query` matches, by `matches` on every document that holds one of the query's
 * lexemes (or a lexeme one of its prefixes starts): a document that holds none answers as the empty
 * document does, so that answer is computed once for all of them.
 */
function matchingIds(query: SearchQuery): number[] {
  const holders = new Set<number>();
  for (const term of lexemesOfQuery(query)) {
    if (!term.prefix) for (const i of holding.get(term.lexeme) ?? []) holders.add(i);
    else
      for (const [lexeme, indices] of holding)
        if (lexeme.startsWith(term.lexeme)) for (const i of indices) holders.add(i);
  }
  const others = matches(query, new Map());
  return streets.flatMap((s, i) =>
    (holders.has(i) ? matches(query, docs[i] ?? new Map()) : others) ? [s.id] : [],
  );
}
const safely = <T>(f: () => T): T | Error => {
  try {
    return f();
  } catch (e) {
    return e as Error;
  }
};

describe("search against PostgreSQL (PGlite 0.4.6)", () => {
  it("every street's lexemes are its to_tsvector('config_openplzapi', Name || ' ' || PostalCode || ' ' || Locality)", async () => {
    const pg = await column<string>(db, "SELECT vec::text FROM streets ORDER BY id");
    const mismatches = streets.flatMap((s, i) =>
      tsvectorText(docs[i] ?? new Map()) === pg[i]
        ? []
        : [
            {
              input: streetDocument(s.name, s.postalCode, s.locality),
              mine: tsvectorText(docs[i] ?? new Map()),
              postgres: pg[i] ?? "",
            },
          ],
    );
    expect(streets.length).toBeGreaterThan(12_000);
    report("documents", mismatches);
  });

  it("streetLexemes (fields lexized apart and joined) is lexemesOf the whole document, for every street and generated names", () => {
    const names = fc.sample(searchTerm(v), { seed: seed + 5, numRuns: runs });
    const mismatches = [
      ...streets,
      ...names.map((name, i) => ({
        name,
        postalCode: streets[i]?.postalCode ?? "",
        locality: streets[i]?.locality ?? "",
      })),
    ].flatMap((s) => {
      const [joined, whole] = [
        streetLexemes(s.name, s.postalCode, s.locality),
        lexemesOf(streetDocument(s.name, s.postalCode, s.locality)),
      ];
      return tsvectorText(joined) === tsvectorText(whole)
        ? []
        : [{ input: s.name, mine: tsvectorText(joined), postgres: tsvectorText(whole) }];
    });
    report("streetLexemes", mismatches);
  });

  it(`${runs} generated search terms: the same tsquery and the same streets as websearch_to_tsquery`, async () => {
    // Each distinct term once: a term drawn twice is the same check (about 1% of them).
    const terms = [...new Set(fc.sample(searchTerm(v), { seed, numRuns: runs }))];
    const mismatches: Mismatch[] = [];
    for (let i = 0; i < terms.length; i += BATCH) {
      const batch = terms.slice(i, i + BATCH);
      const mine = batch.map((t) => safely(() => parseSearchTerm(t)));
      // PostgreSQL refuses NUL in text and errors on 33 waiting operators: those must be our SearchTermErrors.
      const valid = batch.filter((_, k) => !(mine[k] instanceof Error));
      for (const [k, t] of batch.entries()) {
        const error = mine[k];
        if (!(error instanceof Error)) continue;
        const pg = t.includes("\0")
          ? "ERROR"
          : await column<string>(db, "SELECT websearch_to_tsquery('config_openplzapi', $1)::text", [
              t,
            ]).then(
              () => "no error",
              () => "ERROR",
            );
        if (!(error instanceof SearchTermError) || pg !== "ERROR")
          mismatches.push({ input: t, mine: String(error), postgres: pg });
      }
      const pg = await postgresSearch(valid, "websearch_to_tsquery('config_openplzapi', q.t)");
      mine
        .filter((q): q is SearchQuery => !(q instanceof Error))
        .forEach((query, k) => compare(valid[k] ?? "", query, pg[k], mismatches));
    }
    report("search terms", mismatches);
  });

  it(`${Math.ceil(runs / 4)} generated terms in prefix mode: as PostgreSQL with the last word's lexemes as prefixes (:*)`, async () => {
    const cases = fc
      .sample(fc.tuple(searchTerm(v), lastWord(v)), {
        seed: seed + 1,
        numRuns: Math.ceil(runs / 4),
      })
      .filter(([head]) => !head.includes("\0") && !/-{20}/.test(head));
    const mismatches: Mismatch[] = [];
    for (let i = 0; i < cases.length; i += BATCH) {
      const batch = cases.slice(i, i + BATCH);
      const terms = batch.map(([head, last]) => `${head} ${last}`);
      const withSentinel = await column<string>(
        db,
        "SELECT websearch_to_tsquery('config_openplzapi', t)::text FROM unnest($1::text[]) WITH ORDINALITY x(t, o) ORDER BY o",
        [batch.map(([head]) => `${head} ${SENTINEL}`)],
      );
      const lastPhrases = await column<string>(
        db,
        "SELECT phraseto_tsquery('config_openplzapi', t)::text FROM unnest($1::text[]) WITH ORDINALITY x(t, o) ORDER BY o",
        [batch.map(([, last]) => last)],
      );
      const plain = await column<string>(
        db,
        "SELECT websearch_to_tsquery('config_openplzapi', t)::text FROM unnest($1::text[]) WITH ORDINALITY x(t, o) ORDER BY o",
        [terms],
      );
      // The reference: the sentinel, where it stands as an operand of its own, replaced by the last word's phrase with :* on lexemes of 2+ characters.
      const references = batch.map(([head], k) => {
        const phrase = (lastPhrases[k] ?? "").replace(/'((?:[^']|'')*)'/g, (all, lexeme: string) =>
          Array.from(lexeme.replaceAll("''", "'").replaceAll("\\\\", "\\")).length >= 2
            ? `${all}:*`
            : all,
        );
        const sentinel = withSentinel[k] ?? "";
        const quotes = (head.match(/"/g) ?? []).length;
        return quotes % 2 === 1 || phrase === "" || !sentinel.includes(`'${SENTINEL}'`)
          ? (plain[k] ?? "")
          : sentinel.replace(`'${SENTINEL}'`, `( ${phrase} )`);
      });
      const pg = await postgresSearch(references, "q.t::tsquery");
      terms.forEach((term, k) =>
        compare(term, parseSearchTerm(term, { lastWordPrefix: true }), pg[k], mismatches),
      );
    }
    expect(cases.length).toBeGreaterThan(runs / 5);
    report("prefix-mode terms", mismatches);
  });

  it(`${runs} generated filter values: the same streets as ~* / ~ with (?p), or a FilterSyntaxError`, async () => {
    const columns: [FilterParameter, readonly string[], string][] = [
      ["name", v.names, "~*"],
      ["locality", v.localities, "~*"],
      ["postalCode", v.postalCodes, "~"],
    ];
    const mismatches: Mismatch[] = [];
    let accepted = 0;
    for (const [index, [parameter, values, operator]] of columns.entries()) {
      // Each distinct value once: about a quarter of the values drawn are drawn again (a name of
      // the data as it is, a short pattern), and the same value is the same check.
      const patterns = [
        ...new Set(
          fc.sample(filterValue(values), {
            seed: seed + 2 + index,
            numRuns: Math.ceil(runs / columns.length),
          }),
        ),
      ];
      const filters = patterns.map((p) => safely(() => parseStreetFilter(parameter, p)));
      for (const [k, f] of filters.entries())
        if (f instanceof Error && !(f instanceof FilterSyntaxError && f.parameter === parameter))
          mismatches.push({ input: patterns[k] ?? "", mine: String(f), postgres: "" });
      const valid = patterns.filter((_, k) => !(filters[k] instanceof Error));
      accepted += valid.length;
      const rows = await db.query<{ o: number; ids: number[] }>(
        `SELECT q.o::int AS o, array_agg(x.i ORDER BY x.i) AS ids FROM unnest($1::text[]) WITH ORDINALITY q(p, o)
           JOIN unnest($2::text[]) WITH ORDINALITY x(value, i) ON x.value ${operator} ('(?p)' || q.p) GROUP BY q.o`,
        [valid, values],
      );
      const pgIds = valid.map((): number[] => []);
      for (const row of rows.rows) pgIds[row.o - 1] = row.ids;
      valid.forEach((pattern, k) => {
        const filter = parseStreetFilter(parameter, pattern);
        const mine = values.flatMap((value, i) => (filterMatches(filter, value) ? [i + 1] : []));
        if (JSON.stringify(mine) !== JSON.stringify(pgIds[k]))
          mismatches.push({
            input: `${parameter}=${pattern}`,
            mine: `${mine.length} values`,
            postgres: `${pgIds[k]?.length} values`,
          });
      });
    }
    expect(accepted).toBeGreaterThan(runs * 0.6);
    report("filter values", mismatches);
  });
});
