import { describe, expect, it } from "vitest";
import { notFoundProblem, notServedProblem } from "../../generator/contract/problem.ts";
import { createRouter } from "../../generator/edge/router.ts";
import { EMBEDDED_RESOURCES, RESOURCES } from "../../generator/resources/index.ts";
import { notServedRoutes, ORIGINAL_ENDPOINTS } from "../../generator/resources/original.ts";
import { routeOf } from "../../generator/resources/resource.ts";

const served = RESOURCES.map((r) => r.path);
const embedded = EMBEDDED_RESOURCES.map((r) => r.path);

describe("the endpoints a build does not serve", () => {
  it("are the original's endpoints without a resource in the build, each with its reason", () => {
    expect(notServedRoutes(served).map((r) => r.path)).toEqual([]);
    expect(notServedRoutes(embedded).map((r) => r.path)).toEqual([
      "/ch/FullTextSearch",
      "/ch/Streets",
      "/li/FullTextSearch",
      "/li/Streets",
    ]);
    for (const route of notServedRoutes(embedded))
      expect(route.reason, route.path).toMatch(/^[a-z].{20,}[^.]$/);
    expect(notServedRoutes(embedded).find((r) => r.path === "/li/Streets")?.reason).toMatch(
      /ch-streets/,
    );
    expect(notServedRoutes(embedded).find((r) => r.path === "/ch/FullTextSearch")?.reason).toMatch(
      /ch-streets/,
    );
  });

  it.each([
    [
      "a resource for /ch/Streets (its source built)",
      [...served, "/ch/Streets"],
      "/ch/Streets",
      false,
    ],
    [
      "a resource for /ch/FullTextSearch (its streets built)",
      [...embedded, "/ch/FullTextSearch"],
      "/ch/FullTextSearch",
      false,
    ],
    ["the embedded resources", embedded, "/ch/FullTextSearch", true],
    [
      "a build without /de/FullTextSearch",
      embedded.filter((p) => p !== "/de/FullTextSearch"),
      "/de/FullTextSearch",
      true,
    ],
    [
      "a build without /de/Districts/{key}/Municipalities",
      served.filter((p) => p !== "/de/Districts/{key}/Municipalities"),
      "/de/Districts/{key}/Municipalities",
      true,
    ],
    ["all resources", served, "/li/Streets", false],
    ["the embedded resources", embedded, "/li/Streets", true],
  ])("with %s: %s is listed: %s", (_, paths, path, listed) => {
    expect(notServedRoutes(paths).some((r) => r.path === path)).toBe(listed);
  });

  it("says why a build was made without a resource the project has", () => {
    expect(notServedRoutes([]).find((r) => r.path === "/de/Streets")?.reason).toBe(
      "this build was made without it",
    );
  });

  it("has a reason for every original endpoint the project has no resource for", () => {
    for (const endpoint of ORIGINAL_ENDPOINTS)
      if (endpoint.reason === undefined) expect(served, endpoint.path).toContain(endpoint.path);
  });
});

describe("the Worker's router", () => {
  const route = createRouter({
    resources: EMBEDDED_RESOURCES.map((r) => routeOf(r, 1)),
    notServed: notServedRoutes(embedded),
  });
  const kindOf = (pathname: string) => {
    const found = route(pathname);
    return found === undefined
      ? "unknown"
      : "notServed" in found
        ? `not served: ${found.notServed.path}`
        : "file" in found
          ? `file: ${found.file}`
          : "viewDownload" in found
            ? `download: ${found.viewDownload.slug}`
            : `resource: ${found.resource.path}`;
  };

  it.each([
    ["/ch/Streets", "not served: /ch/Streets"],
    ["/CH/streets/", "not served: /ch/Streets"],
    ["/li/Streets", "not served: /li/Streets"],
    ["/ch/FullTextSearch", "not served: /ch/FullTextSearch"],
    ["/li/fulltextsearch", "not served: /li/FullTextSearch"],
    ["/de/FullTextSearch", "resource: /de/FullTextSearch"],
    ["/at/fulltextsearch/", "resource: /at/FullTextSearch"],
    ["/de/FederalStates/09/Localities", "resource: /de/FederalStates/{key}/Localities"],
    ["/ch/Strets", "unknown"],
    ["/ch/Streets/1", "unknown"],
    ["/de/FederalStates//Localities", "unknown"],
    ["/de/Streets", "resource: /de/Streets"],
    ["/de/FederalStates/09/Districts", "resource: /de/FederalStates/{key}/Districts"],
    ["/openapi.json", "file: /openapi.json"],
  ])("%s → %s", (pathname, kind) => {
    expect(kindOf(pathname)).toBe(kind);
  });
});

describe("the problems", () => {
  it("tell a path that is not served from one that does not exist", () => {
    expect(notServedProblem("/ch/Streets", "there is no street data")).toEqual({
      type: "https://tools.ietf.org/html/rfc9110#section-15.5.5",
      title: "Not Found",
      status: 404,
      detail: "This build does not serve /ch/Streets: there is no street data.",
    });
    expect(notFoundProblem("/ch/Strets").detail).toBe("There is no resource at '/ch/Strets'.");
  });
});
