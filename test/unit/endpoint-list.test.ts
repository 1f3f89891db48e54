import { describe, expect, it } from "vitest";
import { isFullTextSearch, isSearchedStreets } from "../../generator/contract/routes.ts";
import type { DocsInput } from "../../generator/docs/input.ts";
import { docsPage } from "../../generator/docs/page.ts";
import { DOCS_CSS } from "../../generator/docs/style.ts";
import { EMBEDDED_RESOURCES, RESOURCES } from "../../generator/resources/index.ts";
import { notServedRoutes } from "../../generator/resources/original.ts";

/** The 38 routes of the original (openplzapi v1.2.0, `[HttpGet]` in Controllers/{AT,CH,DE,LI}Controller.cs). */
const ORIGINAL_ROUTES = [
  "/at/FullTextSearch",
  "/at/FederalProvinces/{key}/Districts",
  "/at/FederalProvinces",
  "/at/Localities",
  "/at/Districts/{key}/Localities",
  "/at/FederalProvinces/{key}/Localities",
  "/at/Districts/{key}/Municipalities",
  "/at/FederalProvinces/{key}/Municipalities",
  "/at/Streets",
  "/ch/FullTextSearch",
  "/ch/Cantons",
  "/ch/Cantons/{key}/Communes",
  "/ch/Districts/{key}/Communes",
  "/ch/Cantons/{key}/Districts",
  "/ch/Localities",
  "/ch/Cantons/{key}/Localities",
  "/ch/Districts/{key}/Localities",
  "/ch/Streets",
  "/de/FullTextSearch",
  "/de/FederalStates/{key}/Districts",
  "/de/GovernmentRegions/{key}/Districts",
  "/de/FederalStates",
  "/de/FederalStates/{key}/GovernmentRegions",
  "/de/Localities",
  "/de/Districts/{key}/Localities",
  "/de/FederalStates/{key}/Localities",
  "/de/GovernmentRegions/{key}/Localities",
  "/de/Districts/{key}/MunicipalAssociations",
  "/de/FederalStates/{key}/MunicipalAssociations",
  "/de/GovernmentRegions/{key}/MunicipalAssociations",
  "/de/Districts/{key}/Municipalities",
  "/de/FederalStates/{key}/Municipalities",
  "/de/GovernmentRegions/{key}/Municipalities",
  "/de/Streets",
  "/li/FullTextSearch",
  "/li/Communes",
  "/li/Localities",
  "/li/Streets",
];

/** The docs page a build of these resources generates (the endpoint reference lives there, not in the README). */
function pageOf(resources: typeof RESOURCES): string {
  const input: DocsInput = {
    version: "0.0.0",
    resources: resources.map((resource) => ({ resource, records: 1, views: 1 })),
    notServed: notServedRoutes(resources.map((r) => r.path)),
  };
  return docsPage(input, DOCS_CSS);
}
const tableSection = (page: string) => {
  const start = page.indexOf(`<section id="endpoints"`);
  return page.slice(start, page.indexOf("</table>", start));
};
const paths = (text: string) =>
  [...new Set([...text.matchAll(/<code>GET (\/[^<?\s]+)<\/code>/g)].map((m) => m[1] ?? ""))].sort();

describe("the docs page's endpoint list", () => {
  it("lists every resource in its endpoint table, and nothing else", () => {
    expect(ORIGINAL_ROUTES).toHaveLength(38);
    expect(paths(tableSection(pageOf(RESOURCES)))).toEqual(RESOURCES.map((r) => r.path).sort());
    expect(paths(tableSection(pageOf(EMBEDDED_RESOURCES)))).toEqual(
      EMBEDDED_RESOURCES.map((r) => r.path).sort(),
    );
  });

  it("lists as not served every route of the original that the embedded build does not serve, with a reason", () => {
    const page = pageOf(EMBEDDED_RESOURCES);
    const start = page.indexOf(`<section id="not-served"`);
    const notServed = page.slice(start, page.indexOf("</section>", start));
    const served = new Set(EMBEDDED_RESOURCES.map((r) => r.path));
    expect(paths(notServed)).toEqual(ORIGINAL_ROUTES.filter((path) => !served.has(path)).sort());
    for (const item of notServed.split("<li>").slice(1))
      expect(
        item
          .replace(/<[^>]+>/g, "")
          .split(": ")
          .slice(1)
          .join(": ")
          .trim().length,
        item,
      ).toBeGreaterThan(20);
  });

  it("serves no route the original does not have, but the address form's two per country", () => {
    expect(RESOURCES.map((r) => r.path).filter((path) => !ORIGINAL_ROUTES.includes(path))).toEqual(
      ["de", "at", "ch", "li"].flatMap((cc) => [`/${cc}/Suggestions`, `/${cc}/AddressCheck`]),
    );
  });
});

describe("RESOURCES, the order the API lists them", () => {
  // The build emits and the docs list resources in this order; a FullTextSearch answers from its
  // Streets' index, so it follows them.
  it.each(RESOURCES.filter(isFullTextSearch).map((r) => [r.path, r] as const))(
    "%s follows the Streets of its country",
    (_, search) => {
      const before = RESOURCES[RESOURCES.indexOf(search) - 1];
      expect(before !== undefined && isSearchedStreets(before)).toBe(true);
      expect(before?.search?.country).toBe(search.search.country);
    },
  );

  it("has a FullTextSearch for every Streets with search", () => {
    expect(RESOURCES.filter(isFullTextSearch).map((r) => r.search.country)).toEqual(
      RESOURCES.filter(isSearchedStreets).map((r) => r.search.country),
    );
  });
});
