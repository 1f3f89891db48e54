/**
 * The PostgreSQL side of `npm run bench:suggest`: pg_trgm as a PostgreSQL user adds typo
 * tolerance to street names. Each country's distinct street names in a table of their own with a
 * GIN trigram index (in database plz_suggest_bench, kept between runs, reloaded when the names
 * change), and per misspelling
 *
 *   SELECT name FROM … WHERE name % $1 ORDER BY similarity(name, $1) DESC, name LIMIT 5
 *
 * (`%`: similarity above pg_trgm.similarity_threshold, 0.3 by default, which the index answers),
 * timed end to end on one connection after an untimed pass over the same requests. A table of
 * distinct names is PostgreSQL's best case: ours searches the whole street list.
 *
 * Connection as bench/postgres.ts: the libpq variables (PGHOST, PGPORT, PGUSER), by default the
 * Unix socket /var/run/postgresql as the current user (`bash bench/postgres-up.sh`); a server
 * listening beyond localhost is refused.
 */
import { userInfo } from "node:os";
import pg from "pg";

const DATABASE = "plz_suggest_bench";

const connect = async (database: string) => {
  const client = new pg.Client({
    host: process.env["PGHOST"] ?? "/var/run/postgresql",
    user: process.env["PGUSER"] ?? userInfo().username,
    database,
  });
  await client.connect();
  return client;
};

/** Per case, pg_trgm's first five names and the wall time of its query. */
export async function pgTrigram(
  tables: readonly (readonly [country: string, names: readonly string[]])[],
  cases: readonly { readonly country: string; readonly text: string }[],
  log: (line: string) => void,
): Promise<{ readonly names: string[]; readonly wall: number }[]> {
  const admin = await connect("postgres");
  const listen = (
    await admin.query<{ l: string }>("SELECT current_setting('listen_addresses') AS l")
  ).rows[0]?.l;
  if (
    !(listen ?? "")
      .split(",")
      .every((a) => ["", "localhost", "127.0.0.1", "::1"].includes(a.trim()))
  )
    throw new Error(`PostgreSQL listens on ${listen}: use a server on localhost only`);
  if (
    (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE])).rowCount === 0
  )
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  const db = await connect(DATABASE);
  try {
    const version = (await db.query<{ v: string }>("SELECT version() AS v")).rows[0]?.v;
    log(`PostgreSQL: ${version}`);
    await db.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    for (const [country, names] of tables) {
      const table = `names_${country}`;
      const count = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`).then(
        (r) => Number(r.rows[0]?.n),
        () => -1,
      );
      if (count === names.length) continue;
      log(`loading ${names.length.toLocaleString("en")} names into ${table}…`);
      await db.query(`DROP TABLE IF EXISTS ${table}`);
      await db.query(`CREATE TABLE ${table} (name text NOT NULL)`);
      await db.query(`INSERT INTO ${table} SELECT unnest($1::text[])`, [names]);
      await db.query(`CREATE INDEX ON ${table} USING gin (name gin_trgm_ops)`);
      await db.query(`ANALYZE ${table}`);
    }
    const query = (c: { country: string; text: string }) => ({
      name: `suggest_${c.country}`,
      text: `SELECT name FROM names_${c.country} WHERE name % $1 ORDER BY similarity(name, $1) DESC, name LIMIT 5`,
      values: [c.text],
    });
    log(`pg_trgm: an untimed pass, then one timed pass over ${cases.length} requests…`);
    for (const c of cases) await db.query(query(c));
    const out: { names: string[]; wall: number }[] = [];
    for (const c of cases) {
      const started = performance.now();
      const result = await db.query<{ name: string }>(query(c));
      out.push({ names: result.rows.map((r) => r.name), wall: performance.now() - started });
    }
    return out;
  } finally {
    await db.end();
  }
}
