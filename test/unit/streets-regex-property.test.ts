import type { PGlite } from "@electric-sql/pglite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { urlOf } from "../../generator/edge/assets.ts";
import { createHandler, type Handler } from "../../generator/edge/handler.ts";
import { buildFixture } from "../support/fixture.ts";
import { dataFile } from "../support/paths.ts";
import { startPostgres } from "../support/pglite.ts";
import { streetPatternCases, streetPatternQuery } from "../support/search-requests.ts";

/**
 * `/de/Streets` with regular-expression filters, planned on the n-gram lists and checked by the
 * engine (contract/search/regex-plan.ts), against PostgreSQL 17.5 itself (PGlite) on the embedded
 * Berlin streets: for generated name patterns (alone, and with a postal-code pattern), the Worker's
 * answer in-process has the count and the streets of `name ~* ('(?p)' || p)` (and `postal_code ~
 * ('(?p)' || q)`); or it is a 400: for a pattern PostgreSQL rejects, one with a construct the engine
 * does not evaluate, or one too broad to check (counted, never more than a share of the runs).
 *
 * STREETS_REGEX_SEED=<n> replays a run; STREETS_REGEX_RUNS=<n> sets the number of patterns.
 */
const seed = Number(process.env["STREETS_REGEX_SEED"] ?? Date.now() % 2 ** 31);
const runs = Number(process.env["STREETS_REGEX_RUNS"] ?? 150);

interface Street {
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
}

let db: PGlite;
let handler: Handler;
let streets: Street[];

function files(root: string) {
  return {
    fetch: async (input: Request | string) => {
      try {
        return new Response(readFileSync(join(root, new URL(urlOf(input)).pathname)));
      } catch {
        return new Response(null, { status: 404 });
      }
    },
  };
}

async function get(query: string): Promise<{ status: number; total: number; body: string }> {
  const response = await handler(new Request(`https://test/de/Streets?${query}`));
  return {
    status: response.status,
    total: Number(response.headers.get("x-total-count") ?? "-1"),
    body: await response.text(),
  };
}

/** Every street of an answer, page by page. */
async function all(query: string): Promise<Street[]> {
  const out: Street[] = [];
  for (let page = 1; ; page++) {
    const { body } = await get(`${query}&pageSize=50&page=${page}`);
    const rows = JSON.parse(body) as Street[];
    out.push(...rows);
    if (rows.length < 50) return out;
  }
}

beforeAll(async () => {
  console.log(
    `streets regex property test: seed ${seed}, ${runs} patterns (replay: STREETS_REGEX_SEED=${seed})`,
  );
  // The build search.test.ts and search-index.test.ts serve (one for the run): its Austrian
  // streets and states are indexed and served apart from Berlin's.
  const { dir } = await buildFixture(20_000, dataFile("de/streets-berlin.csv"), {
    only: ["de.streets", "at.streets", "de.federalstates"],
    swissStreets: false,
  });
  handler = createHandler(files(dir));
  streets = await all("locality=Berlin");
  db = await startPostgres();
  await db.exec("CREATE TABLE streets (name text, postal_code text, locality text)");
  await db.query("INSERT INTO streets SELECT * FROM unnest($1::text[], $2::text[], $3::text[])", [
    streets.map((s) => s.name),
    streets.map((s) => s.postalCode),
    streets.map((s) => s.locality),
  ]);
});
afterAll(async () => {
  await db?.close();
});

const key = (s: Street) => `${s.name}|${s.postalCode}|${s.locality}`;

describe("/de/Streets regular-expression filters against PostgreSQL's ~* and ~", () => {
  it(`${runs} generated name patterns (every third with a postal-code pattern): the same streets, or a 400`, async () => {
    const names = [...new Set(streets.map((s) => s.name))];
    const mismatches: { query: string; mine: string; postgres: string }[] = [];
    let compared = 0;
    let broad = 0;
    for (const patternCase of streetPatternCases(names, seed, runs)) {
      const { name, code } = patternCase;
      const query = streetPatternQuery(patternCase);
      let pg: Street[] | Error;
      try {
        pg = (
          await db.query<Street>(
            `SELECT name, postal_code AS "postalCode", locality FROM streets WHERE name ~* ('(?p)' || $1)` +
              (code === undefined ? "" : ` AND postal_code ~ ('(?p)' || $2)`),
            code === undefined ? [name] : [name, code],
          )
        ).rows;
      } catch (error) {
        pg = error instanceof Error ? error : new Error(String(error));
      }
      const mine = await get(`${query}&pageSize=50`);
      if (mine.status === 400) {
        const detail = (JSON.parse(mine.body) as { detail: string }).detail;
        if (/too many street names|too broadly/.test(detail)) broad++;
        else if (!(pg instanceof Error) && !/ uses /.test(detail))
          mismatches.push({ query, mine: detail, postgres: `${pg.length} streets` });
        continue;
      }
      if (pg instanceof Error) {
        mismatches.push({ query, mine: `${mine.status}`, postgres: pg.message });
        continue;
      }
      compared++;
      const got = mine.total <= 200 ? (await all(query)).map(key).sort() : [];
      const expected = mine.total <= 200 ? pg.map(key).sort() : [];
      if (mine.total !== pg.length || JSON.stringify(got) !== JSON.stringify(expected))
        mismatches.push({ query, mine: `${mine.total} streets`, postgres: `${pg.length} streets` });
    }
    console.log(
      `streets regex: ${compared} compared, ${broad} refused as too broad, ${mismatches.length} mismatches (seed ${seed})`,
    );
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(runs / 2);
  });
});
