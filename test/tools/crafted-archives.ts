import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dataFile } from "../support/paths.ts";
import { craftZip, honestEntry, zeroBombEntry } from "../support/zip-craft.ts";

/**
 * Writes the crafted archives of test/build/hostile-sources.test.ts into a directory, to build
 * from by hand and measure (`npm run build -- --source ch-localities=DIR/NAME.zip`, under
 * `/usr/bin/time -v`). Usage: tsx test/tools/crafted-archives.ts DIR
 */
const dir = resolve(process.argv[2] ?? "crafted-archives");
mkdirSync(dir, { recursive: true });
const localities = readFileSync(dataFile("ch/AMTOVZ_CSV_LV95.csv"));
const ENTRY = "AMTOVZ_CSV_LV95/AMTOVZ_CSV_LV95.csv";
const lastLines = (lines: number) =>
  Buffer.from(
    localities
      .toString("latin1")
      .split("\n")
      .slice(-lines - 1)
      .join("\n"),
    "latin1",
  ).byteLength - 1;

const archives: Record<string, Uint8Array> = {
  honest: craftZip([honestEntry(ENTRY, localities)]),
  "four-entries-1000MiB": craftZip(
    [1, 2, 3, 4].map((n) => zeroBombEntry(`AMTOVZ_CSV_LV95/${n}/AMTOVZ_CSV_LV95.csv`, 1000)),
  ),
  "declares-28-lines-fewer": craftZip([
    { ...honestEntry(ENTRY, localities), size: localities.byteLength - lastLines(28) },
  ]),
  "wrong-crc": craftZip([{ ...honestEntry(ENTRY, localities), crc: 0x12345678 }]),
  "one-entry-1000MiB": craftZip([zeroBombEntry(ENTRY, 1000)]),
  "1000MiB-declaring-the-register": craftZip([
    { ...zeroBombEntry(ENTRY, 1000), size: localities.byteLength },
  ]),
};
for (const [name, bytes] of Object.entries(archives)) {
  writeFileSync(join(dir, `${name}.zip`), bytes);
  console.log(`${join(dir, `${name}.zip`)}\t${bytes.byteLength} bytes`);
}
