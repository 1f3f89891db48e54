import { parseString } from "fast-csv";
import { readFileSync } from "node:fs";
import { dataFile } from "./paths.ts";

/**
 * An independent model of the street data for checking responses: parsed with fast-csv's header
 * mode, joined by hand, and sorted with ICU's German collator (not the generator's code).
 */
export interface ModelStreet {
  name: string;
  postalCode: string;
  locality: string;
  regionalKey: string;
  borough: string;
  suburb: string;
}

export async function readModelStreets(file: string): Promise<ModelStreet[]> {
  const rows: ModelStreet[] = [];
  await new Promise<void>((resolve, reject) => {
    parseString<Record<string, string>, Record<string, string>>(readFileSync(file, "utf8"), {
      headers: true,
    })
      .on("data", (r: Record<string, string>) =>
        rows.push({
          name: r["Name"] ?? "",
          postalCode: r["PostalCode"] ?? "",
          locality: r["Locality"] ?? "",
          regionalKey: r["RegionalKey"] ?? "",
          borough: r["Borough"] ?? "",
          suburb: r["Suburb"] ?? "",
        }),
      )
      .on("error", reject)
      .on("end", () => resolve());
  });
  return rows;
}

const collator = new Intl.Collator("de");

/** The streets of one locality (case-insensitive), de-duplicated, in API order. */
export function modelLocality(streets: readonly ModelStreet[], locality: string): ModelStreet[] {
  const wanted = locality.normalize("NFC").trim().toLowerCase();
  const seen = new Set<string>();
  return streets
    .filter((s) => s.locality.toLowerCase() === wanted)
    .filter((s) => {
      const id = JSON.stringify(s);
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort(
      (a, b) =>
        collator.compare(a.name, b.name) ||
        cmp(a.postalCode, b.postalCode) ||
        collator.compare(a.borough, b.borough) ||
        collator.compare(a.suburb, b.suburb),
    );
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** GV100AD municipality names and federal-state names by key, read with plain substring arithmetic. */
export function modelRegister(): {
  municipalities: Map<string, string>;
  states: Map<string, string>;
} {
  const municipalities = new Map<string, string>();
  const states = new Map<string, string>();
  for (const line of readFileSync(dataFile("de/GV100AD_30112025.txt"), "utf8").split("\n")) {
    if (line.startsWith("60")) municipalities.set(line.slice(10, 18), line.slice(22, 72).trim());
    if (line.startsWith("10")) states.set(line.slice(10, 12), line.slice(22, 72).trim());
  }
  return { municipalities, states };
}

/** All localities at once (for national-size sweeps): normalised name → streets in API order. */
export function modelByLocality(streets: readonly ModelStreet[]): Map<string, ModelStreet[]> {
  const groups = new Map<string, Map<string, ModelStreet>>();
  for (const s of streets) {
    const key = s.locality.normalize("NFC").trim().toLowerCase();
    const group = groups.get(key) ?? new Map<string, ModelStreet>();
    group.set(JSON.stringify(s), s);
    groups.set(key, group);
  }
  const sorted = new Map<string, ModelStreet[]>();
  for (const [key, group] of groups) sorted.set(key, sortModel([...group.values()]));
  return sorted;
}

function sortModel(streets: ModelStreet[]): ModelStreet[] {
  return streets.sort(
    (a, b) =>
      collator.compare(a.name, b.name) ||
      cmp(a.postalCode, b.postalCode) ||
      collator.compare(a.borough, b.borough) ||
      collator.compare(a.suburb, b.suburb),
  );
}
