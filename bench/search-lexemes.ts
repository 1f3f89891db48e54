/**
 * `npx tsx bench/search-lexemes.ts [--source FILE]`: how long the search module needs to lexize
 * every street of the national synthetic file, whole documents (lexemesOf) against fields lexized
 * once per distinct value (streetLexemes), each twice in a row; and that both agree.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { lexemesOf, streetDocument, streetLexemes } from "../generator/contract/postgres/lexize.ts";
import { readStreets } from "../generator/sources/de-streets.ts";

const { values: args } = parseArgs({
  options: { source: { type: "string", default: "/tmp/national-streets.csv" } },
});
const source = resolve(args.source);
const streets = await readStreets(readFileSync(source), source);
const ways = {
  lexemesOf: (s: (typeof streets)[number]) =>
    lexemesOf(streetDocument(s.name, s.postalCode, s.locality)),
  streetLexemes: (s: (typeof streets)[number]) => streetLexemes(s.name, s.postalCode, s.locality),
};
let lexemes = -1;
for (const run of [1, 2]) {
  for (const [name, lexize] of Object.entries(ways)) {
    const started = performance.now();
    let count = 0;
    for (const s of streets) count += lexize(s).size;
    if (lexemes !== -1 && count !== lexemes)
      throw new Error(`${name} found ${count} lexemes, not ${lexemes}`);
    lexemes = count;
    console.log(
      `run ${run}: ${name.padEnd(13)} ${streets.length.toLocaleString("en")} streets in ${((performance.now() - started) / 1000).toFixed(1)} s (${lexemes.toLocaleString("en")} lexemes)`,
    );
  }
}
