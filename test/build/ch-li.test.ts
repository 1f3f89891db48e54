import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  allRecords,
  ask,
  embeddedBuild,
  parseCsvBody,
  type Handler,
} from "../support/memory-build.ts";
import { dataFile } from "../support/paths.ts";

/** Swiss and Liechtenstein endpoints against the BFS and swisstopo files, read here with plain string splitting. */
const latin1 = (name: string) =>
  readFileSync(dataFile(name))
    .toString("latin1")
    .split(/\r?\n/)
    .filter((l) => l !== "")
    .map((l) => l.split("\t"));
const cantons = latin1("ch/GDEHist_KT.txt").map((r) => r[0] ?? "");
const communeRows = latin1("ch/GDEHist_GDE.txt");
const inForce = communeRows.filter((r) => r[11] === "" && r[6] === "11");
const abolished = communeRows.filter(
  (r) => r[11] !== "" && r[6] === "11" && !inForce.some((f) => f[3] === r[3]),
);
const register = readFileSync(dataFile("ch/AMTOVZ_CSV_LV95.csv"), "utf8")
  .replace(/^\uFEFF/, "")
  .split(/\r?\n/)
  .slice(1)
  .filter((l) => l !== "")
  .map((l) => l.split(";"));
const isLi = (bfs: string) => /^70(0[1-9]|1[01])$/.test(bfs);
const sorted = (values: readonly string[]) => [...values].sort();

let handler: Handler;
beforeAll(async () => {
  ({ handler } = await embeddedBuild());
});

describe("Swiss communes and districts", () => {
  it("has the 26 cantons, and every commune in force exactly once under its canton across all pages", async () => {
    expect(cantons).toHaveLength(26);
    expect(inForce.length).toBeGreaterThan(2000);
    const keys: string[] = [];
    for (const canton of cantons)
      keys.push(
        ...(await allRecords(handler, `/ch/Cantons/${canton}/Communes`)).map((c) =>
          String(c["key"]),
        ),
      );
    expect(sorted(keys)).toEqual(sorted(inForce.map((r) => r[3] ?? "")));
  });

  it("lists every commune once under its district, and only districts in force under the cantons", async () => {
    const districts: string[] = [];
    for (const canton of cantons)
      districts.push(
        ...(await allRecords(handler, `/ch/Cantons/${canton}/Districts`)).map((d) =>
          String(d["key"]),
        ),
      );
    expect(new Set(districts).size).toBe(districts.length);
    const keys: string[] = [];
    for (const district of districts)
      keys.push(
        ...(await allRecords(handler, `/ch/Districts/${district}/Communes`)).map((c) =>
          String(c["key"]),
        ),
      );
    expect(sorted(keys)).toEqual(sorted(inForce.map((r) => r[3] ?? "")));
  });

  it("leaves abolished communes out", async () => {
    expect(abolished.length).toBeGreaterThan(1000);
    const served = new Set<string>();
    for (const canton of cantons)
      for (const c of await allRecords(handler, `/ch/Cantons/${canton}/Communes`))
        served.add(String(c["key"]));
    expect(abolished.filter((r) => served.has(r[3] ?? ""))).toEqual([]);
  });

  it("matches a canton by its BFS number exactly: 1 is Zürich, 01 and ZH are unknown keys", async () => {
    expect((await ask(handler, "/ch/Cantons/1/Districts")).headers["x-total-count"]).not.toBe("0");
    for (const key of ["01", "ZH", "27"]) {
      const answer = await ask(handler, `/ch/Cantons/${key}/Communes`);
      expect([
        answer.status,
        answer.text,
        answer.headers["x-total-count"],
        answer.headers["x-total-pages"],
      ]).toEqual([200, "[]", "0", "0"]);
    }
  });
});

describe("localities of Switzerland and Liechtenstein", () => {
  it("serves every register row once, Liechtenstein's under /li, all others (but two whose commune is not in force) under /ch", async () => {
    const ch = await allRecords(handler, "/ch/Localities?postalCode=.");
    const li = await allRecords(handler, "/li/Localities?postalCode=.");
    const id = (r: Record<string, unknown>) =>
      `${String(r["postalCode"])}|${String(r["name"])}|${String((r["commune"] as { key: string }).key)}`;
    const rows = register.map((r) => `${r[1]}|${r[0]}|${r[5]}`);
    expect(sorted(li.map(id))).toEqual(sorted(rows.filter((r) => isLi(r.split("|")[2] ?? ""))));
    const chRows = rows.filter((r) => !isLi(r.split("|")[2] ?? ""));
    expect(ch.length).toBe(chRows.length - 2);
    expect(ch.map(id).every((r) => chRows.includes(r))).toBe(true);
  });

  it.each([
    [
      "/ch/Localities?postalCode=8001",
      (r: Record<string, unknown>) => String(r["postalCode"]).includes("8001"),
    ],
    [
      "/ch/Localities?postalCode=%5E30%5B0-4%5D",
      (r: Record<string, unknown>) => /^30[0-4]/.test(String(r["postalCode"])),
    ],
    [
      "/ch/Localities?name=%5EZ%C3%9CRICH%24",
      (r: Record<string, unknown>) => r["name"] === "Zürich",
    ],
    [
      "/ch/Localities?name=z%C3%BCrich&postalCode=%5E8001%24",
      (r: Record<string, unknown>) =>
        String(r["name"]).includes("Zürich") && r["postalCode"] === "8001",
    ],
    ["/li/Localities?name=vaduz", (r: Record<string, unknown>) => r["name"] === "Vaduz"],
    [
      "/li/Localities?name=%5E(schaan%7Cvaduz)%24",
      (r: Record<string, unknown>) => r["name"] === "Vaduz" || r["name"] === "Schaan",
    ],
  ])("%s selects exactly the matching localities", async (target, matches) => {
    const all = await allRecords(
      handler,
      target.startsWith("/li") ? "/li/Localities?postalCode=." : "/ch/Localities?postalCode=.",
    );
    const selected = await allRecords(handler, target);
    expect(selected.length).toBeGreaterThan(0);
    expect(selected).toEqual(all.filter(matches));
  });

  it("matches postal codes as regular expressions: ' 8001' and '8001x' select nothing, '800' every code containing it", async () => {
    for (const code of ["%208001", "8001x"])
      expect(
        (await ask(handler, `/ch/Localities?postalCode=${code}`)).headers["x-total-count"],
      ).toBe("0");
    expect(
      Number((await ask(handler, "/ch/Localities?postalCode=800")).headers["x-total-count"]),
    ).toBeGreaterThan(10);
  });

  it("answers a page of matches in CSV with the same records as in JSON", async () => {
    const json = JSON.parse(
      (await ask(handler, "/ch/Localities?name=berg&page=2&pageSize=50")).text,
    ) as Record<string, unknown>[];
    const csv = parseCsvBody(
      (await ask(handler, "/ch/Localities?name=berg&page=2&pageSize=50&format=csv")).text,
    );
    expect(json.length).toBe(50);
    expect(csv.map((r) => [r["PostalCode"], r["Name"], r["Commune.Key"]])).toEqual(
      json.map((r) => [r["postalCode"], r["name"], String((r["commune"] as { key: unknown }).key)]),
    );
  });

  it("writes the commune key under 'Commune.Key' in CSV (the original's 'Commune.Code' header fails), the coordinates last", async () => {
    expect(
      (await ask(handler, "/li/Localities?postalCode=.&format=csv")).text.split("\r\n")[0],
    ).toBe("PostalCode,Name,Commune.Key,Commune.Name,Latitude,Longitude");
    expect(
      (await ask(handler, "/ch/Localities?format=csv&postalCode=8001")).text.split("\r\n")[0],
    ).toBe(
      "PostalCode,Name,Commune.Key,Commune.Name,Commune.ShortName,District.Key,District.Name,District.ShortName,Canton.Key,Canton.Name,Canton.ShortName,Latitude,Longitude",
    );
  });
});
