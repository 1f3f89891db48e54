import type { PGlite } from "@electric-sql/pglite";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  casePairs,
  isAlpha,
  isSpace,
  isSpecial,
  toLower,
  toUpper,
} from "../../generator/contract/postgres/ctype.ts";
import { germanStem, stem, unaccent } from "../../generator/contract/postgres/lexize.ts";
import {
  deriveCtype,
  readVendoredFiles,
  renderCtypeModule,
  renderVendoredModule,
} from "../support/pg-tables.ts";
import { ROOT } from "../support/paths.ts";
import { column, startPostgres } from "../support/pglite.ts";
import { dataWords, SEARCH_FILES } from "../support/search-data.ts";
import { inputsDigest } from "../support/verified-inputs.ts";

/**
 * The search module's vendored tables are PostgreSQL 17's: regenerated from PGlite 0.4.6 here and
 * compared with the committed files byte for byte (`npm run search-tables` rewrites them), and the
 * code that reads them agrees with the server on every code point and every word of the street data.
 *
 * Those comparisons are deterministic: they can change only with this file, a module it imports
 * (followed), a package among them (PGlite, the stemmer) or the street data. They run when the
 * digest of those inputs differs from the one committed in search-tables.verified.json (and then
 * the last test names the digest to commit once they pass), and always with
 * PLZ_SEARCH_TABLES=always (the nightly); with the inputs as verified they are skipped (about 20 s
 * of CPU of a run on two cores).
 */
const VERIFIED = resolve(ROOT, "test/unit/search-tables.verified.json");
const digest = inputsDigest(
  "test/unit/search-tables.test.ts",
  SEARCH_FILES.map((file) => `data/${file}`),
);
const verified = (JSON.parse(readFileSync(VERIFIED, "utf8")) as { digest: string }).digest;
const compare = process.env["PLZ_SEARCH_TABLES"] === "always" || digest !== verified;

let db: PGlite;
beforeAll(async () => {
  if (compare) db = await startPostgres();
});
afterAll(async () => {
  await db?.close();
});

const committed = (name: string) =>
  readFileSync(resolve(ROOT, "generator/contract/postgres/data", name), "utf8");

describe.runIf(compare)("vendored PostgreSQL tables", () => {
  it("character classes and case mappings are the server's, for every code point", async () => {
    const derived = await deriveCtype(db);
    expect(renderCtypeModule(derived)).toBe(committed("pg-ctype.ts"));
    // and ctype.ts decodes them back to exactly these
    const [alpha, special, space] = [
      new Set(derived.alpha),
      new Set(derived.special),
      new Set(derived.space),
    ];
    const wrong: string[] = [];
    for (let c = 0x80; c <= 0x10ffff; c++) {
      if (
        isAlpha(c) !== alpha.has(c) ||
        isSpecial(c) !== special.has(c) ||
        isSpace(c) !== space.has(c)
      )
        wrong.push(c.toString(16));
    }
    expect(wrong).toEqual([]);
    const lower = new Map(derived.lower);
    const upper = new Map(derived.upper);
    for (const [c] of casePairs())
      expect([toLower(c), toUpper(c)]).toEqual([lower.get(c) ?? c, upper.get(c) ?? c]);
    expect([...casePairs()].length).toBe(derived.lower.length + derived.upper.length);
  });

  it("unaccent.rules and german.stop are the files PostgreSQL ships", async () => {
    expect(renderVendoredModule(await readVendoredFiles(db))).toBe(committed("pg-tsearch.ts"));
  });

  it("unaccent() agrees with the map on every code point", async () => {
    const separator = "\u0001";
    for (let start = 1; start <= 0x10ffff; start += 0x10000) {
      const chars: string[] = [];
      for (let c = start; c < Math.min(start + 0x10000, 0x110000); c++)
        if (c !== 1 && (c < 0xd800 || c > 0xdfff)) chars.push(String.fromCodePoint(c));
      const [pg] = await column<string>(db, "SELECT unaccent($1)", [chars.join(separator)]);
      expect(pg?.split(separator)).toEqual(chars.map(unaccent));
    }
  });
});

describe("the Snowball German stemmer (@orama/stemmers) is PostgreSQL 17's german_stem", () => {
  // ts_lexize('german_stem', w) on PostgreSQL 15 and 17; Snowball 3 (PostgreSQL 18) differs on several.
  it.each([
    ["mueller", "muell"],
    ["müller", "mull"],
    ["häuser", "haus"],
    ["haeuser", "haeus"],
    ["allee", "alle"],
    ["systemen", "system"],
    ["kaiserin", "kaiserin"],
    ["lehrerinnen", "lehrerinn"],
    ["feuer", "feu"],
    ["aachener", "aach"],
    ["straße", "strass"],
    ["strasse", "strass"],
    ["bauer", "bau"],
    ["wandeln", "wandeln"],
    ["aquae", "aqua"],
    ["schlüssel", "schlussel"],
    ["gasse", "gass"],
    ["gassen", "gass"],
    ["wegen", "weg"],
    ["huegel", "huegel"],
    ["hügel", "hugel"],
    ["quelle", "quell"],
    ["treue", "treu"],
    ["platz", "platz"],
    ["aero", "aero"],
    ["aeg", "aeg"],
    ["altonaer", "altona"],
    ["pariser", "paris"],
    ["republik", "republ"],
  ])("%s → %s", (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it.runIf(compare)(
    "with the stop words and lower-casing, agrees with ts_lexize('german_stem') on every word of the street data",
    async () => {
      // plus words with characters beyond the BMP, which the package counts as two
      const words = [
        ...[...dataWords()].map(unaccent),
        "a𝐀en",
        "a𝐀ern",
        "o𝐀es",
        "ab𝐀en",
        "𝐀𝐀𝐀ungen",
        "hä𝐀user",
        "straß𝐀e",
      ];
      const pg = await column<string | null>(
        db,
        "SELECT (ts_lexize('german_stem', w))[1] FROM unnest($1::text[]) WITH ORDINALITY x(w, o) ORDER BY o",
        [words],
      );
      expect(words.length).toBeGreaterThan(10_000);
      expect(pg.filter((lexeme) => lexeme === null).length).toBeGreaterThan(20);
      expect(words.map(germanStem)).toEqual(pg);
    },
  );
});

describe("the inputs verified last", () => {
  it("are today's, or the comparisons above ran on these (and the digest to commit is named)", () => {
    expect(
      digest,
      `the inputs of search-tables.test.ts changed, so its comparisons with PostgreSQL ran: once they pass, commit {"digest": "${digest}"} as test/unit/search-tables.verified.json`,
    ).toBe(verified);
  });
});
