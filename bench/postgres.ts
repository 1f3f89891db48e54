/**
 * `npm run bench:postgres`: the original OpenPLZ API's street search on PostgreSQL, timed per query
 * class, to stand beside the static implementation. It installs nothing: it needs a
 * running PostgreSQL (Debian's postgresql-15) on this machine. `bash bench/postgres-up.sh` installs
 * and starts one, listening on the Unix socket and localhost only, with a superuser role for you:
 *
 *   bash bench/postgres-up.sh          # apt-get install postgresql-15; pg_ctlcluster 15 main start
 *   npm run bench:postgres -- [--source FILE] [--seed N] [--json FILE] [--reload] [--load-only]
 *                             [--class NAME …] [--passes N] [--warm-pass] [--limit N]
 *   pg_ctlcluster 15 main stop         # when done
 *
 * Connection: the libpq variables (PGHOST, PGPORT, PGUSER); default the Unix socket
 * /var/run/postgresql as the current user. It refuses a server that listens beyond localhost.
 *
 * Setup, as the original's migrations (openpotato/openplzapi, src/datalayer): the unaccent
 * extension, config_openplzapi (german with word types through unaccent, german_stem), the de
 * schema's Localities and Streets (indexes on LocalityId and (Name, LocalityId)) and FullTextStreets
 * with the generated SearchVector = to_tsvector('config_openplzapi', "Name" || ' ' || "PostalCode"
 * || ' ' || "Locality") and its GIN index, in database plz_search_bench, loaded from the synthetic
 * national street file (generated if missing) and kept between runs (--reload rebuilds it;
 * --load-only loads if needed and stops, so that loading and timing can be separate runs).
 * --class (repeatable) times only the named query classes of the same mix, after the same warm-up:
 * the whole mix takes longer than one run should on a shared machine (the name filters scan every
 * street), so it can be timed in parts and the parts' JSON files given to bench:search together.
 *
 * A request is what the original asks the database for one page: the page (ORDER BY Name,
 * PostalCode, Locality LIMIT 50) and count(*), one after the other; timed end to end (wall) on one
 * connection, after 200 untimed warm-up requests. --passes N (default 1) times the selected
 * requests in N passes, one after the other, and gives per class the p50 / p99 / max of each
 * request's first pass and of the least of its N passes: the statistics bench:search gives for the
 * static side (bench/pass-stats.ts). --warm-pass adds an untimed pass over the selected requests
 * before the timed ones, as bench:search warms the Worker with a pass over the whole mix, so that
 * the first pass reads no page from disk that the warm-up never touched. Several passes are
 * affordable for the full-text classes; the name filters scan every street, about a second a
 * request: --limit N times only the first N requests of each selected class (in mix order), and
 * bench:search compares its own figures over the same requests. The municipality/district/state joins the
 * original adds for its response are left out, which favours PostgreSQL slightly.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { readStreets } from "../generator/sources/de-streets.ts";
import { searchMix, type SearchRequest } from "./search-mix.ts";
import { ensureNationalStreets } from "./national-streets.ts";
import { addPass, classTimes, firstOfEachClass, type PassTimes } from "./pass-stats.ts";

const { values: args } = parseArgs({
  options: {
    source: { type: "string", default: "/tmp/national-streets.csv" },
    seed: { type: "string", default: "13" },
    json: { type: "string" },
    reload: { type: "boolean", default: false },
    "load-only": { type: "boolean", default: false },
    class: { type: "string", multiple: true },
    passes: { type: "string", default: "1" },
    "warm-pass": { type: "boolean", default: false },
    limit: { type: "string" },
  },
});
const DATABASE = "plz_search_bench";
const log = (line: string) => process.stderr.write(`${line}\n`);
const connect = async (database: string) => {
  const client = new pg.Client({
    host: process.env["PGHOST"] ?? "/var/run/postgresql",
    user: process.env["PGUSER"] ?? userInfo().username,
    database,
  });
  await client.connect();
  return client;
};

const source = resolve(args.source);
await ensureNationalStreets(source);
const streets = await readStreets(readFileSync(source), source);

const admin = await connect("postgres");
const listen =
  (await admin.query<{ listen_addresses: string }>("SHOW listen_addresses")).rows[0]
    ?.listen_addresses ?? "";
if (!listen.split(",").every((a) => ["", "localhost", "127.0.0.1", "::1"].includes(a.trim())))
  throw new Error(`PostgreSQL listens on ${listen}: use a server on localhost only`);
if ((await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE])).rowCount === 0)
  await admin.query(`CREATE DATABASE ${DATABASE}`);
await admin.end();
const db = await connect(DATABASE);
const settings = (
  await db.query<{ v: string; c: string }>(
    "SELECT version() AS v, current_setting('lc_collate') AS c",
  )
).rows[0];
log(`${settings?.v}; collation ${settings?.c}`);

const loaded = await db.query<{ n: string }>(`SELECT count(*) AS n FROM de."FullTextStreets"`).then(
  (r) => Number(r.rows[0]?.n),
  () => -1,
);
if (args.reload || loaded !== streets.length) await load();
if (args["load-only"]) {
  await db.end();
  process.exit(0);
}

async function load(): Promise<void> {
  log(`loading ${streets.length.toLocaleString("en")} streets…`);
  const started = performance.now();
  await db.query(`
    DROP SCHEMA IF EXISTS de CASCADE;
    CREATE EXTENSION IF NOT EXISTS unaccent;
    DROP TEXT SEARCH CONFIGURATION IF EXISTS config_openplzapi;
    CREATE TEXT SEARCH CONFIGURATION config_openplzapi ( COPY = german );
    ALTER TEXT SEARCH CONFIGURATION config_openplzapi ALTER MAPPING FOR hword, hword_part, word WITH unaccent, german_stem;
    CREATE SCHEMA de;
    CREATE TABLE de."Localities" ("Id" uuid PRIMARY KEY, "Name" text NOT NULL, "PostalCode" text NOT NULL, "MunicipalityId" uuid);
    CREATE TABLE de."Streets" ("Id" uuid PRIMARY KEY, "Borough" text, "Name" text NOT NULL, "Suburb" text, "LocalityId" uuid NOT NULL REFERENCES de."Localities" ON DELETE CASCADE);
    CREATE TABLE de."FullTextStreets" ("Id" uuid PRIMARY KEY, "Borough" text, "Locality" text NOT NULL, "Name" text NOT NULL, "PostalCode" text NOT NULL,
      "SearchVector" tsvector GENERATED ALWAYS AS (to_tsvector('config_openplzapi', "Name" || ' ' || "PostalCode" || ' ' || "Locality")) STORED,
      "Suburb" text, "MunicipalityId" uuid);`);
  const localities = [
    ...new Map(streets.map((s) => [`${s.postalCode}\t${s.locality}`, s])).values(),
  ];
  await db.query(
    `INSERT INTO de."Localities" ("Id", "PostalCode", "Name") SELECT gen_random_uuid(), p, n FROM unnest($1::text[], $2::text[]) x(p, n)`,
    [localities.map((l) => l.postalCode), localities.map((l) => l.locality)],
  );
  for (let i = 0; i < streets.length; i += 50_000) {
    const batch = streets.slice(i, i + 50_000);
    await db.query(
      `WITH rows AS (SELECT gen_random_uuid() AS id, * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) x(name, postal_code, locality, borough, suburb)),
         streets AS (INSERT INTO de."Streets" ("Id", "Borough", "Name", "Suburb", "LocalityId")
           SELECT r.id, nullif(r.borough, ''), r.name, nullif(r.suburb, ''), l."Id" FROM rows r JOIN de."Localities" l ON l."PostalCode" = r.postal_code AND l."Name" = r.locality)
       INSERT INTO de."FullTextStreets" ("Id", "Borough", "Locality", "Name", "PostalCode", "Suburb")
         SELECT id, nullif(borough, ''), locality, name, postal_code, nullif(suburb, '') FROM rows`,
      [
        batch.map((s) => s.name),
        batch.map((s) => s.postalCode),
        batch.map((s) => s.locality),
        batch.map((s) => s.borough ?? ""),
        batch.map((s) => s.suburb ?? ""),
      ],
    );
    log(`  ${Math.min(i + 50_000, streets.length).toLocaleString("en")} rows`);
  }
  log("indexing…");
  await db.query(`
    CREATE INDEX "IX_Streets_LocalityId2" ON de."Streets" ("LocalityId");
    CREATE INDEX "IX_Streets_Name_LocalityId" ON de."Streets" ("Name", "LocalityId");
    CREATE INDEX "IX_FullTextStreets_SearchVector2" ON de."FullTextStreets" USING gin ("SearchVector");
    ANALYZE;`);
  log(`loaded and indexed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const FTS_WHERE = `f."SearchVector" @@ websearch_to_tsquery('config_openplzapi', $1)`;
/** Prefix mode in PostgreSQL's terms: the words before the last as websearch_to_tsquery, the last as to_tsquery's 'word':*. */
const PREFIX_WHERE = `f."SearchVector" @@ (websearch_to_tsquery('config_openplzapi', $1) && to_tsquery('config_openplzapi', $2))`;

/** The SQL of one request: [page, count], each with its parameters. */
function statements(r: SearchRequest): [string, unknown[]][] {
  if (r.kind === "fts") {
    const words = r.searchTerm.split(" ");
    const last = words.pop() ?? "";
    const [where, params] = r.prefix
      ? [PREFIX_WHERE, [words.join(" "), `'${last.replaceAll("'", "''")}':*`]]
      : [FTS_WHERE, [r.searchTerm]];
    return [
      [
        `SELECT f."Id", f."Name", f."PostalCode", f."Locality", f."Borough", f."Suburb" FROM de."FullTextStreets" f WHERE ${where} ORDER BY f."Name", f."PostalCode", f."Locality" LIMIT 50 OFFSET 0`,
        params,
      ],
      [`SELECT count(*)::int FROM de."FullTextStreets" f WHERE ${where}`, params],
    ];
  }
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (column: string, operator: string, value: string | undefined) => {
    if (value === undefined) return;
    params.push(value);
    conditions.push(`${column} ${operator} ('(?p)' || $${params.length})`);
  };
  add(`s."Name"`, "~*", r.name);
  add(`l."PostalCode"`, "~", r.postalCode);
  add(`l."Name"`, "~*", r.locality);
  const from = `FROM de."Streets" s JOIN de."Localities" l ON l."Id" = s."LocalityId" WHERE ${conditions.join(" AND ")}`;
  return [
    [
      `SELECT s."Id", s."Name", s."Borough", s."Suburb", l."PostalCode", l."Name" AS "Locality" ${from} ORDER BY s."Name", l."PostalCode", l."Name" LIMIT 50 OFFSET 0`,
      params,
    ],
    [`SELECT count(*)::int ${from}`, params],
  ];
}

async function run(r: SearchRequest): Promise<number> {
  const started = performance.now();
  for (const [sql, params] of statements(r)) await db.query(sql, params);
  return performance.now() - started;
}

const mix = searchMix(streets, Number(args.seed));
const unknownClass = args.class?.find((name) => !mix.some((r) => r.class === name));
if (unknownClass !== undefined) throw new Error(`no query class ${unknownClass} in the mix`);
const requests = firstOfEachClass(
  args.class === undefined ? mix : mix.filter((r) => args.class?.includes(r.class) === true),
  () => (args.limit === undefined ? Infinity : Number(args.limit)),
);
const passes = Math.max(1, Number(args.passes));
log(`warming up, then ${requests.length.toLocaleString("en")} requests × ${passes} passes…`);
for (const r of mix.slice(0, 200)) await run(r);
if (args["warm-pass"]) for (const r of requests) await run(r);
const times: (PassTimes | undefined)[] = [];
let done = 0;
const started = performance.now();
for (let pass = 0; pass < passes; pass++)
  for (const [i, r] of requests.entries()) {
    times[i] = addPass(times[i], await run(r));
    if (++done % 1000 === 0)
      log(
        `  ${done.toLocaleString("en")} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
  }
await db.end();

const summary = classTimes(
  requests.map((r, i) => ({ class: r.class, times: times[i] ?? { first: NaN, least: NaN } })),
  passes,
);
console.log(
  `PostgreSQL (${settings?.v?.split(" on ")[0]}), ${streets.length.toLocaleString("en")} streets, ${requests.length.toLocaleString("en")} requests × ${passes} passes, wall ms per request (page + count):`,
);
const cols = ["first p50", "first p99", "first max", `least/${passes} p50`, `least/${passes} p99`];
console.log(
  `${"class".padEnd(30)} ${"n".padStart(6)} ${cols.map((c) => c.padStart(12)).join(" ")}`,
);
for (const s of summary)
  console.log(
    `${s.class.padEnd(30)} ${String(s.requests).padStart(6)} ${[s.first.p50, s.first.p99, s.first.max, s.least.p50, s.least.p99].map((v) => v.toFixed(2).padStart(12)).join(" ")}`,
  );
console.log(
  `(after 200 untimed requests${args["warm-pass"] ? " and an untimed pass over these" : ""}; first: each request's first timed pass; least/${passes}: each request's least of ${passes} passes)`,
);
if (args.json !== undefined)
  writeFileSync(
    args.json,
    `${JSON.stringify({ server: settings?.v, collation: settings?.c, streets: streets.length, seed: Number(args.seed), passes, warmPass: args["warm-pass"], classes: summary }, null, 2)}\n`,
  );
