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

export const OPENPLZ_SEARCH_SETUP = `
  CREATE EXTENSION IF NOT EXISTS unaccent;
  CREATE TEXT SEARCH CONFIGURATION config_openplzapi ( COPY = german );
  ALTER TEXT SEARCH CONFIGURATION config_openplzapi
    ALTER MAPPING FOR hword, hword_part, word WITH unaccent, german_stem;
`;

export async function startPostgres(): Promise<PGlite> {
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
