import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { checkpoint } from "./crash.ts";
import { layoutOf, type TableSpec } from "./tables.ts";

/**
 * The copy: a SQLite database (Node's node:sqlite) with one table per dataset and two of its own,
 * `plz_sync` (the build the copy is at, where from, which datasets it keeps) and
 * `plz_sync_datasets` (each dataset's table and layout). The state changes only in a transaction
 * with the tables, so a copy is always at one complete build, whenever the process dies.
 */
export interface CopyState {
  readonly builtAt: string;
  readonly source: string;
  /** `all`: the copy keeps every dataset the deployment publishes; `listed`: those it was given. */
  readonly selection: "all" | "listed";
  /** The datasets the build of `builtAt` published (to tell what was added or dropped since). */
  readonly published: readonly string[];
  /** The datasets the copy holds, with their table's layout. */
  readonly datasets: ReadonlyMap<string, { readonly table: string; readonly layout: string }>;
}

/** The copy does not hold what the feed says it held: a row to remove is missing, a row to add is there. */
export class CopyMismatch extends Error {}

type Row = readonly (string | number | null)[];

const META = "plz_sync";
const DATASETS = "plz_sync_datasets";
const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

export class SyncStore {
  private constructor(private readonly db: DatabaseSync) {}

  static open(file: string): SyncStore {
    try {
      const db = new DatabaseSync(file, { timeout: 10_000 });
      // Read once here, so that a file that is no database is refused by its name.
      db.exec("PRAGMA cache_size = -65536; SELECT count(*) FROM sqlite_schema");
      return new SyncStore(db);
    } catch (error) {
      throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  close(): void {
    this.db.close();
  }

  /** The copy's state; undefined for a database the sync has not loaded yet. */
  state(): CopyState | undefined {
    if (!this.hasTable(META)) return undefined;
    const meta = new Map(
      this.db
        .prepare(`SELECT key, value FROM ${META}`)
        .all()
        .map((row) => [String(row["key"]), String(row["value"])]),
    );
    const builtAt = meta.get("builtAt");
    if (builtAt === undefined) return undefined;
    const datasets = new Map(
      this.db
        .prepare(`SELECT resource, table_name, layout FROM ${DATASETS}`)
        .all()
        .map((row) => [
          String(row["resource"]),
          { table: String(row["table_name"]), layout: String(row["layout"]) },
        ]),
    );
    return {
      builtAt,
      source: meta.get("source") ?? "",
      selection: meta.get("selection") === "listed" ? "listed" : "all",
      published: JSON.parse(meta.get("published") ?? "[]") as string[],
      datasets,
    };
  }

  hasTable(name: string): boolean {
    return (
      this.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !==
      undefined
    );
  }

  /** One transaction: all of `work` or nothing of it. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      this.db.exec(
        `CREATE TABLE IF NOT EXISTS ${META} (key TEXT PRIMARY KEY, value TEXT NOT NULL);
         CREATE TABLE IF NOT EXISTS ${DATASETS} (resource TEXT PRIMARY KEY, table_name TEXT NOT NULL UNIQUE, layout TEXT NOT NULL)`,
      );
      const result = await work();
      checkpoint();
      this.db.exec("COMMIT");
      checkpoint();
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }

  /**
   * Moves the copy from the build `from` (undefined: a copy not loaded yet) to `next`, in the
   * transaction that changed the tables; refused when another sync moved it meanwhile.
   */
  setState(from: string | undefined, next: Omit<CopyState, "datasets">): void {
    const now = this.db.prepare(`SELECT value FROM ${META} WHERE key = 'builtAt'`).get();
    if ((now === undefined ? undefined : String(now["value"])) !== from)
      throw new Error("the copy changed while this sync ran (another sync at once?); run again");
    const set = this.db.prepare(`INSERT OR REPLACE INTO ${META} (key, value) VALUES (?, ?)`);
    set.run("builtAt", next.builtAt);
    set.run("source", next.source);
    set.run("selection", next.selection);
    set.run("published", JSON.stringify(next.published));
  }

  /** A new, empty table for a dataset (replacing the copy's own table of it); returns its row writer. */
  createTable(spec: TableSpec): (row: Row) => void {
    this.dropDataset(spec.resource, spec.table);
    const columns = spec.columns.map(
      (column) => `${q(column.name)} ${column.type}${column.type === "TEXT" ? " NOT NULL" : ""}`,
    );
    this.db.exec(`CREATE TABLE ${q(spec.table)} (${columns.join(", ")})`);
    const insert = this.db.prepare(
      `INSERT INTO ${q(spec.table)} VALUES (${spec.columns.map(() => "?").join(", ")})`,
    );
    return (row) => {
      insert.run(...(row as SQLInputValue[]));
      checkpoint();
    };
  }

  /**
   * Indexes a loaded table and records it. The identity is a unique index unless two records share
   * one (docs/CHANGES.md allows it: a Swiss street under two localities); then a plain one.
   */
  finishTable(
    spec: TableSpec,
    indexed?: (done: number, total: number) => void,
  ): { unique: boolean } {
    indexed?.(0, 1 + spec.indexed.length);
    let unique = true;
    try {
      this.createIdentityIndex(spec, true);
    } catch {
      unique = false;
      this.createIdentityIndex(spec, false);
    }
    checkpoint();
    for (const [i, column] of spec.indexed.entries()) {
      indexed?.(1 + i, 1 + spec.indexed.length);
      this.db.exec(
        `CREATE INDEX ${q(`${spec.table}_${column}`)} ON ${q(spec.table)} (${q(column)})`,
      );
      checkpoint();
    }
    indexed?.(1 + spec.indexed.length, 1 + spec.indexed.length);
    this.db
      .prepare(`INSERT OR REPLACE INTO ${DATASETS} (resource, table_name, layout) VALUES (?, ?, ?)`)
      .run(spec.resource, spec.table, layoutOf(spec));
    return { unique };
  }

  /** Makes a unique identity index a plain one; false when it was not unique. */
  private relaxIdentity(spec: TableSpec): boolean {
    const name = `${spec.table}_identity`;
    const index = this.db.prepare(`SELECT "unique" FROM pragma_index_list(?) WHERE name = ?`);
    if (Number(index.get(spec.table, name)?.["unique"] ?? 0) !== 1) return false;
    this.db.exec(`DROP INDEX ${q(name)}`);
    this.createIdentityIndex(spec, false);
    return true;
  }

  private createIdentityIndex(spec: TableSpec, unique: boolean): void {
    this.db.exec(
      `CREATE ${unique ? "UNIQUE " : ""}INDEX ${q(`${spec.table}_identity`)} ON ${q(spec.table)} (${spec.identity.map(q).join(", ")})`,
    );
  }

  /** Removes a dataset's table and its record (tables the sync did not make are not touched: see `foreignTable`). */
  dropDataset(resource: string, table: string): void {
    this.db.exec(`DROP TABLE IF EXISTS ${q(table)}`);
    if (this.hasTable(DATASETS))
      this.db.prepare(`DELETE FROM ${DATASETS} WHERE resource = ?`).run(resource);
  }

  /** Whether `table` exists but is not one the sync made (then it must not be replaced). */
  foreignTable(table: string): boolean {
    if (!this.hasTable(table)) return false;
    return (
      !this.hasTable(DATASETS) ||
      this.db.prepare(`SELECT 1 FROM ${DATASETS} WHERE table_name = ?`).get(table) === undefined
    );
  }

  count(table: string): number {
    return Number(this.db.prepare(`SELECT count(*) AS n FROM ${q(table)}`).get()?.["n"] ?? 0);
  }

  /** Applies records removed, changed and added, each checked against the copy's rows. */
  changer(spec: TableSpec): {
    remove(old: Row): void;
    change(old: Row, next: Row): void;
    add(next: Row): void;
  } {
    const table = q(spec.table);
    const match = spec.columns.map((column) => `${q(column.name)} IS ?`).join(" AND ");
    const one = `rowid = (SELECT rowid FROM ${table} WHERE ${match} LIMIT 1)`;
    const remove = this.db.prepare(`DELETE FROM ${table} WHERE ${one}`);
    const change = this.db.prepare(
      `UPDATE ${table} SET ${spec.columns.map((column) => `${q(column.name)} = ?`).join(", ")} WHERE ${one}`,
    );
    const add = this.db.prepare(
      `INSERT INTO ${table} VALUES (${spec.columns.map(() => "?").join(", ")})`,
    );
    const once = (changes: number | bigint, what: string, row: Row) => {
      if (Number(changes) !== 1)
        throw new CopyMismatch(
          `${spec.resource}: ${what} ${JSON.stringify(row)}, which it does not hold`,
        );
      checkpoint();
    };
    return {
      remove: (old) =>
        once(remove.run(...(old as SQLInputValue[])).changes, "a removed record", old),
      change: (old, next) =>
        once(
          change.run(...(next as SQLInputValue[]), ...(old as SQLInputValue[])).changes,
          "a changed record",
          old,
        ),
      add: (next) => {
        try {
          add.run(...(next as SQLInputValue[]));
        } catch (error) {
          // Two records with one identity, as docs/CHANGES.md allows: the index stops being unique.
          if (!this.relaxIdentity(spec))
            throw new CopyMismatch(
              `${spec.resource}: an added record ${JSON.stringify(next)} clashes with one it holds (${error instanceof Error ? error.message : String(error)})`,
            );
          add.run(...(next as SQLInputValue[]));
        }
        checkpoint();
      },
    };
  }

  /** Every row of a table, in the order of all its columns (for comparing copies). */
  rows(table: string): unknown[][] {
    const columns = this.db
      .prepare(`SELECT name FROM pragma_table_info(?)`)
      .all(table)
      .map((row) => q(String(row["name"])));
    const statement = this.db.prepare(
      `SELECT ${columns.join(", ")} FROM ${q(table)} ORDER BY ${columns.join(", ")}`,
    );
    statement.setReturnArrays(true);
    return statement.all() as unknown as unknown[][];
  }
}
