/**
 * `npm run search-tables`: (re)writes the search module's vendored tables from PostgreSQL 17.5
 * (PGlite 0.4.6): character classes and case mappings, unaccent.rules, german.stop. When they
 * change, search-tables.test.ts compares them with PostgreSQL again and names the new digest of its
 * inputs to commit (test/unit/search-tables.verified.json).
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  deriveCtype,
  readVendoredFiles,
  renderCtypeModule,
  renderVendoredModule,
} from "../support/pg-tables.ts";
import { ROOT } from "../support/paths.ts";
import { startPostgres } from "../support/pglite.ts";

export const CTYPE_MODULE = resolve(ROOT, "generator/contract/postgres/data/pg-ctype.ts");
export const VENDORED_MODULE = resolve(ROOT, "generator/contract/postgres/data/pg-tsearch.ts");

const db = await startPostgres();
process.stderr.write("reading PostgreSQL's character classes (all code points)…\n");
writeFileSync(CTYPE_MODULE, renderCtypeModule(await deriveCtype(db)));
writeFileSync(VENDORED_MODULE, renderVendoredModule(await readVendoredFiles(db)));
await db.close();
process.stderr.write(`wrote ${CTYPE_MODULE}\nwrote ${VENDORED_MODULE}\n`);
