import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { allRecords, ask, embeddedBuild, type Handler } from "../support/memory-build.ts";
import { dataFile } from "../support/paths.ts";

/**
 * The GV100AD hierarchy endpoints against the source, in-process over the whole embedded register.
 * The model reads GV100AD with plain substring arithmetic (record type, key columns), not the
 * generator's reader.
 */
const lines = readFileSync(dataFile("de/GV100AD_30112025.txt"), "utf8").split(/\r?\n/);
const ofType = (type: string) => lines.filter((line) => line.startsWith(type));
const model = {
  states: ofType("10").map((l) => l.slice(10, 12)),
  regions: ofType("20").map((l) => l.slice(10, 13)),
  districts: ofType("40").map((l) => l.slice(10, 15)),
  associations: ofType("50")
    .filter((l) => l.slice(122, 124) !== "50")
    .map((l) => l.slice(10, 15) + l.slice(18, 22)),
  municipalities: ofType("60").map((l) => l.slice(10, 18)),
};
const sorted = (keys: readonly string[]) => [...keys].sort();

let handler: Handler;
beforeAll(async () => {
  ({ handler } = await embeddedBuild());
});

const keysUnder = async (paths: readonly string[]) => {
  const keys: string[] = [];
  for (const path of paths)
    keys.push(...(await allRecords(handler, path)).map((r) => String(r["key"])));
  return keys;
};

describe("GV100AD hierarchy", () => {
  it("has the source's 16 federal states and 400 districts, each district exactly once under its state", async () => {
    expect(model.states).toHaveLength(16);
    expect(model.districts).toHaveLength(400);
    const states = JSON.parse((await ask(handler, "/de/FederalStates")).text) as { key: string }[];
    expect(states.map((s) => s.key)).toEqual(model.states);
    expect(
      sorted(await keysUnder(model.states.map((k) => `/de/FederalStates/${k}/Districts`))),
    ).toEqual(sorted(model.districts));
  });

  it("lists every government region record under its state, and under a region the districts whose key starts with it", async () => {
    expect(
      sorted(await keysUnder(model.states.map((k) => `/de/FederalStates/${k}/GovernmentRegions`))),
    ).toEqual(sorted(model.regions));
    const underRegions = await keysUnder(
      model.regions.map((k) => `/de/GovernmentRegions/${k}/Districts`),
    );
    expect(sorted(underRegions)).toEqual(
      sorted(model.districts.filter((d) => model.regions.includes(d.slice(0, 3)))),
    );
    expect(underRegions.length).toBeGreaterThan(300);
  });

  it("has every municipality exactly once under its district across all pages, but for the five whose key has 00 as district digits (as the original: Berlin, Hamburg, three uninhabited areas)", async () => {
    const withDistrict = model.municipalities.filter((m) => m.slice(3, 5) !== "00");
    expect(model.municipalities.filter((m) => !withDistrict.includes(m))).toEqual([
      "02000000",
      "07000999",
      "11000000",
      "13000998",
      "13000999",
    ]);
    expect(withDistrict.every((m) => model.districts.includes(m.slice(0, 5)))).toBe(true);
    expect(
      sorted(await keysUnder(model.districts.map((k) => `/de/Districts/${k}/Municipalities`))),
    ).toEqual(sorted(withDistrict));
    // GV100AD has the district records 11000 and 02000, but no municipality lies in them.
    expect(model.districts).toEqual(expect.arrayContaining(["11000", "02000"]));
    for (const key of ["11000", "02000"])
      expect((await ask(handler, `/de/Districts/${key}/Municipalities`)).text).toBe("[]");
  });

  it("has every municipality exactly once under its federal state, and under its government region where it has one", async () => {
    expect(
      sorted(await keysUnder(model.states.map((k) => `/de/FederalStates/${k}/Municipalities`))),
    ).toEqual(sorted(model.municipalities));
    const inRegions = model.municipalities.filter(
      (m) => model.regions.includes(m.slice(0, 3)) && m.slice(3, 5) !== "00",
    );
    expect(
      sorted(
        await keysUnder(model.regions.map((k) => `/de/GovernmentRegions/${k}/Municipalities`)),
      ),
    ).toEqual(sorted(inRegions));
  });

  it("serves the type 51–58 associations only (type 50, 'verbandsfreie Gemeinde', is not an association)", async () => {
    expect(model.associations.length).toBeGreaterThan(1000);
    expect(
      sorted(
        await keysUnder(model.districts.map((k) => `/de/Districts/${k}/MunicipalAssociations`)),
      ),
    ).toEqual(sorted(model.associations));
    expect(
      sorted(
        await keysUnder(model.states.map((k) => `/de/FederalStates/${k}/MunicipalAssociations`)),
      ),
    ).toEqual(sorted(model.associations));
    const inRegions = model.associations.filter((a) => model.regions.includes(a.slice(0, 3)));
    expect(
      sorted(
        await keysUnder(
          model.regions.map((k) => `/de/GovernmentRegions/${k}/MunicipalAssociations`),
        ),
      ),
    ).toEqual(sorted(inRegions));
  });

  it("orders by key and joins a municipality's association, district, region and state", async () => {
    const page = await allRecords(handler, "/de/Districts/09189/Municipalities");
    expect(page.map((m) => m["key"])).toEqual(sorted(page.map((m) => String(m["key"]))));
    const bergen = page.find((m) => m["key"] === "09189113");
    expect(bergen).toEqual({
      key: "09189113",
      name: "Bergen",
      type: "Kreisangehörige Gemeinde",
      postalCode: "83346",
      multiplePostalCodes: false,
      association: { key: "091895166", name: "Bergen (VGem)", type: "Verwaltungsgemeinschaft" },
      district: { key: "09189", name: "Traunstein", type: "Landkreis" },
      governmentRegion: { key: "091", name: "Oberbayern" },
      federalState: { key: "09", name: "Bayern" },
    });
  });

  it.each([
    "/de/FederalStates/99/Districts",
    "/de/FederalStates/9/Municipalities",
    "/de/GovernmentRegions/010/MunicipalAssociations",
    "/de/Districts/0918/Municipalities",
    "/de/Districts/%zz/Municipalities",
    "/de/FederalStates/bayern/GovernmentRegions",
  ])("%s: an unknown key is 200 [] with zero totals", async (path) => {
    const answer = await ask(handler, path);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("[]");
    expect([answer.headers["x-total-count"], answer.headers["x-total-pages"]]).toEqual(["0", "0"]);
  });
});
