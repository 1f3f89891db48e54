/**
 * PostgreSQL 17.5 in-process (PGlite 0.4.6, wasm) set up as the original OpenPLZ API sets up its
 * database: the `unaccent` extension and `config_openplzapi`, a copy of `german` whose word types
 * go through unaccent before german_stem (openpotato/openplzapi,
 * src/datalayer/Extensions/MigrationBuilderExtensions.cs). The search tests' oracle.
 *
 * Pinned to 0.4.6 on purpose: PGlite 0.5.x is PostgreSQL 18, whose Snowball German stems
 * differently (ae/oe/ue → umlauts); OpenPLZ runs PostgreSQL 17.
 */
import { PGlite } from "@electric-sql/pglite";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./paths.ts";
import { sharedBuild } from "./shared-build.ts";

export const OPENPLZ_SEARCH_SETUP = `
  CREATE EXTENSION IF NOT EXISTS unaccent;
  CREATE TEXT SEARCH CONFIGURATION config_openplzapi ( COPY = german );
  ALTER TEXT SEARCH CONFIGURATION config_openplzapi
    ALTER MAPPING FOR hword, hword_part, word WITH unaccent, german_stem;
`;

/**
 * A database set up for the search tests. `initdb` in wasm is most of a second core's work for
 * several seconds, so a test run makes one database, keeps a copy of its data directory (shared-
 * build.ts) and every other test file starts from that copy; outside a test run (the
 * `search-tables` tool) it makes its own.
 */
export async function startPostgres(): Promise<PGlite> {
  if (process.env["PLZ_TEST_TMP"] === undefined) return createPostgres();
  let made: PGlite | undefined;
  const { dir } = await sharedBuild(
    { pglite: pgliteVersion(), setup: OPENPLZ_SEARCH_SETUP },
    async (out) => {
      made = await createPostgres();
      const dump = await made.dumpDataDir("none");
      mkdirSync(out);
      writeFileSync(join(out, DATA_DIR_DUMP), Buffer.from(await dump.arrayBuffer()));
      return true;
    },
  );
  if (made !== undefined) return made;
  return PGlite.create({
    extensions: { unaccent },
    loadDataDir: new Blob([readFileSync(join(dir, DATA_DIR_DUMP))]),
  });
}

/** The installed PGlite's version: a copy is only good for the PostgreSQL that made it. */
const pgliteVersion = (): string =>
  (
    JSON.parse(
      readFileSync(join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8"),
    ) as { version: string }
  ).version;
const DATA_DIR_DUMP = "pgdata.tar";

async function createPostgres(): Promise<PGlite> {
  const db = await PGlite.create({ extensions: { unaccent } });
  await db.exec(OPENPLZ_SEARCH_SETUP);
  return db;
}

/** One column of a query's rows. */
export async function column<T>(db: PGlite, sql: string, params: unknown[] = []): Promise<T[]> {
  const result = await db.query<Record<string, T>>(sql, params, { rowMode: "object" });
  return result.rows.map((row) => Object.values(row)[0] as T);
}

/** A file of PostgreSQL's share directory (`tsearch_data/german.stop`, …) as PGlite ships it. */
export async function shareFile(db: PGlite, path: string): Promise<string> {
  const [dir] = await column<string>(db, "SELECT setting FROM pg_config WHERE name = 'SHAREDIR'");
  const [text] = await column<string>(db, "SELECT pg_read_file($1)", [`${dir}/${path}`]);
  return text ?? "";
}
