import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { collationKey } from "../../generator/resources/collation.ts";
import { sortRecords } from "../../generator/build/views.ts";
import { dataFile } from "../support/paths.ts";

const sorted = (names: string[]) => sortRecords(names, (name) => [collationKey(name)]);

describe("German collation", () => {
  it.each([
    [
      ["Zeppelinstraße", "Ährenweg", "Aachener Straße", "Öschweg", "Oberweg"],
      ["Aachener Straße", "Ährenweg", "Oberweg", "Öschweg", "Zeppelinstraße"],
    ],
    [
      ["Straße", "Strasse", "Strand"],
      ["Strand", "Strasse", "Straße"],
    ],
    [
      ["am Park", "Am Park", "Amsel"],
      ["am Park", "Am Park", "Amsel"],
    ],
    [
      ["Müller", "Muller", "Mueller"],
      ["Mueller", "Muller", "Müller"],
    ],
    [
      ["B 2", "B 10", "B1"],
      ["B 10", "B 2", "B1"],
    ],
    [
      ["Élysée", "Elysee", "Eltviller"],
      ["Eltviller", "Elysee", "Élysée"],
    ],
  ])("%j", (input, expected) => {
    expect(sorted(input)).toEqual(expected);
  });

  it("orders all real Berlin street names exactly as ICU's German collation", () => {
    const names = readFileSync(dataFile("de/streets-berlin.csv"), "utf8")
      .split("\n")
      .slice(1)
      .map((line) =>
        line.startsWith('"') ? line.slice(1, line.indexOf('"', 1)) : (line.split(",")[0] ?? ""),
      )
      .filter((name) => name !== "");
    const unique = [...new Set(names)];
    expect(unique.length).toBeGreaterThan(9000);
    expect(sorted(unique)).toEqual([...unique].sort(new Intl.Collator("de").compare));
  });

  it("is a total order: distinct strings never tie", () => {
    const keys = ["a", "A", "á", "Á", "ä", "ae", "à"].map(collationKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
