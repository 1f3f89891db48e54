import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EMBEDDED_RESOURCES, RESOURCES } from "../../generator/resources/index.ts";
import { ROOT } from "../support/paths.ts";

/** The 38 routes of the original (openplzapi v1.2.0, `[HttpGet]` in Controllers/{AT,CH,DE,LI}Controller.cs). */
const ORIGINAL_ROUTES = [
  "/at/FullTextSearch", "/at/FederalProvinces/{key}/Districts", "/at/FederalProvinces", "/at/Localities", "/at/Districts/{key}/Localities", "/at/FederalProvinces/{key}/Localities", "/at/Districts/{key}/Municipalities", "/at/FederalProvinces/{key}/Municipalities", "/at/Streets",
  "/ch/FullTextSearch", "/ch/Cantons", "/ch/Cantons/{key}/Communes", "/ch/Districts/{key}/Communes", "/ch/Cantons/{key}/Districts", "/ch/Localities", "/ch/Cantons/{key}/Localities", "/ch/Districts/{key}/Localities", "/ch/Streets",
  "/de/FullTextSearch", "/de/FederalStates/{key}/Districts", "/de/GovernmentRegions/{key}/Districts", "/de/FederalStates", "/de/FederalStates/{key}/GovernmentRegions", "/de/Localities", "/de/Districts/{key}/Localities", "/de/FederalStates/{key}/Localities", "/de/GovernmentRegions/{key}/Localities", "/de/Districts/{key}/MunicipalAssociations", "/de/FederalStates/{key}/MunicipalAssociations", "/de/GovernmentRegions/{key}/MunicipalAssociations", "/de/Districts/{key}/Municipalities", "/de/FederalStates/{key}/Municipalities", "/de/GovernmentRegions/{key}/Municipalities", "/de/Streets",
  "/li/FullTextSearch", "/li/Communes", "/li/Localities", "/li/Streets",
];

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const section = (from: string, to: string) => readme.slice(readme.indexOf(from), readme.indexOf(to, readme.indexOf(from)));
const paths = (text: string) => [...new Set([...text.matchAll(/`GET (\/[^`?\s]+)`/g)].map((m) => m[1] ?? ""))].sort();

describe("the README", () => {
  it("lists every resource in its endpoint table, and nothing else", () => {
    expect(ORIGINAL_ROUTES).toHaveLength(38);
    expect(paths(section("| Path | Paged | Selection | Order | Records |", "### Not served"))).toEqual(RESOURCES.map((r) => r.path).sort());
  });

  it("lists as not served every route of the original that the embedded build does not serve, with a reason", () => {
    const notServed = section("### Not served", "Partly served");
    const served = new Set(EMBEDDED_RESOURCES.map((r) => r.path));
    expect(paths(notServed)).toEqual(ORIGINAL_ROUTES.filter((path) => !served.has(path)).sort());
    for (const row of notServed.split("\n").filter((line) => line.startsWith("| `GET"))) expect(row.split("|")[2]?.trim().length, row).toBeGreaterThan(20);
  });

  it("serves no route the original does not have", () => {
    expect(RESOURCES.map((r) => r.path).filter((path) => !ORIGINAL_ROUTES.includes(path))).toEqual([]);
  });
});
