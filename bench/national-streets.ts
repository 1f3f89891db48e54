/**
 * A synthetic national German street list in the OpenPLZ export format
 * (`Name,PostalCode,Locality,RegionalKey,Borough,Suburb`), so that every bench runs on a fresh
 * clone. SYNTHETIC: for measuring scale only, never shipped, never reference data. The
 * municipalities, their keys, postal codes and populations are the embedded GV100AD's and the
 * street names the embedded Berlin list's vocabulary, but which street lies where is drawn at
 * random (deterministic for a seed).
 *
 * The shape is what the build meets nationally: about 1.2 million rows in 10,000 municipalities,
 * streets per municipality growing with population^0.75 (at least 3), so a few cities hold tens of
 * thousands of streets and most villages a handful; a few common names (drawn with a skew towards
 * the start of the sorted vocabulary) repeated across the country, each name once per
 * municipality; postal codes spread over one code per 15,000 inhabitants from the seat's; cities
 * over 200,000 inhabitants with boroughs.
 *
 *   npx tsx bench/national-streets.ts [--rows 1200000] [--seed 1] --out FILE
 */
import { closeSync, existsSync, openSync, readFileSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { csvField } from "../generator/contract/csv.ts";
import { readGv100ad } from "../generator/sources/de-gv100ad.ts";
import { readStreets, STREETS_HEADER } from "../generator/sources/de-streets.ts";

const ROOT = resolve(import.meta.dirname, "..");
const GV100AD = resolve(ROOT, "data/de/GV100AD_30112025.txt");
const BERLIN = resolve(ROOT, "data/de/streets-berlin.csv");

export const NATIONAL_ROWS = 1_200_000;
const INHABITANTS_PER_POSTAL_CODE = 15_000;
const BOROUGH_CITY = 200_000;
const BOROUGHS = ["Nord", "Süd", "Ost", "West", "Mitte"];

interface Municipality {
  readonly key: string;
  readonly locality: string;
  readonly population: number;
  readonly postalCode: string;
}

/** A small seeded generator (SplitMix32): uniform in [0, 1), the same sequence for a seed everywhere. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

/** GV100AD's municipalities with a postal code, and their population (columns 140–150 of a type-60 record, which the reader does not need). */
function municipalities(): Municipality[] {
  const bytes = readFileSync(GV100AD);
  const population = new Map<string, number>();
  for (const line of bytes.toString("utf8").split(/\r?\n/))
    if (line.startsWith("60"))
      population.set(line.slice(10, 18), Number(line.slice(139, 150).trim()) || 1);
  return readGv100ad(bytes, GV100AD)
    .municipalities.filter((m) => /^[0-9]{5}$/.test(m.postalCode))
    .map((m) => ({
      key: m.key,
      locality: m.name.replace(/,.*$/, ""),
      population: population.get(m.key) ?? 1,
      postalCode: m.postalCode,
    }));
}

/** Writes the list to `out`; returns its rows and municipalities. */
export async function writeNationalStreets(
  out: string,
  rows = NATIONAL_ROWS,
  seed = 1,
): Promise<{ rows: number; municipalities: number }> {
  const random = seeded(seed);
  const places = municipalities();
  const names = [
    ...new Set((await readStreets(readFileSync(BERLIN), BERLIN)).map((s) => s.name)),
  ].sort();
  const weights = places.map((m) => m.population ** 0.75);
  const total = weights.reduce((a, b) => a + b, 0);
  const fd = openSync(out, "w");
  let buffer = `${STREETS_HEADER.join(",")}\n`;
  let written = 0;
  try {
    for (const [i, m] of places.entries()) {
      const streets = Math.max(3, Math.round(((weights[i] ?? 0) / total) * rows));
      const postalCodes = Math.max(1, Math.round(m.population / INHABITANTS_PER_POSTAL_CODE));
      const hasBoroughs = m.population > BOROUGH_CITY;
      const used = new Set<string>();
      for (let n = 0; n < streets && written < rows; n++, written++) {
        let name: string;
        do {
          name = names[Math.floor(random() ** 1.6 * names.length)] ?? "";
          if (used.has(name)) name = `${name} ${1 + Math.floor(random() * 9)}`;
        } while (used.has(name));
        used.add(name);
        const postalCode = String(
          Number(m.postalCode) + Math.floor(random() * postalCodes),
        ).padStart(5, "0");
        const borough = hasBoroughs
          ? `${m.locality}-${BOROUGHS[Math.floor(random() * BOROUGHS.length)] ?? ""}`
          : "";
        buffer += `${[name, postalCode, m.locality, m.key, borough, ""].map(csvField).join(",")}\n`;
        // Bounded chunks: the whole list is about 60 MB of text.
        if (buffer.length > 1 << 20) {
          writeSync(fd, buffer);
          buffer = "";
        }
      }
    }
    writeSync(fd, buffer);
  } finally {
    closeSync(fd);
  }
  return { rows: written, municipalities: places.length };
}

/** The benches' input: generated at `source` unless a file is there already. */
export async function ensureNationalStreets(source: string): Promise<void> {
  if (existsSync(source)) return;
  process.stderr.write(`generating ${source}…\n`);
  const { rows, municipalities } = await writeNationalStreets(source);
  process.stderr.write(`${rows} rows, ${municipalities} municipalities\n`);
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      rows: { type: "string", default: String(NATIONAL_ROWS) },
      seed: { type: "string", default: "1" },
      out: { type: "string" },
    },
  });
  if (values.out === undefined)
    throw new Error("usage: tsx bench/national-streets.ts [--rows N] [--seed N] --out FILE");
  const { rows, municipalities } = await writeNationalStreets(
    resolve(values.out),
    Number(values.rows),
    Number(values.seed),
  );
  process.stderr.write(`${rows} rows, ${municipalities} municipalities\n`);
}
