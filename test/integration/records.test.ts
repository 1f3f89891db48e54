import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCsvLine } from "../../generator/contract/csv.ts";
import { buildFixture, FIXTURE_BUDGET } from "../support/fixture.ts";
import {
  allPages,
  client,
  inParallel,
  startServer,
  type RawResponse,
  type RunningServer,
} from "../support/http.ts";
import { parseCsvBody } from "../support/memory-build.ts";
import {
  AT_STATUS_BY_CODE,
  AT_STREETS,
  CH_CANTONS,
  CH_COMMUNES,
  CH_DISTRICTS,
  countyDistrict,
  GV,
  GV_TYPES,
  LI_COMMUNES,
  LOCALITY_REGISTER,
  namesRelated,
  POST_CODES,
  shortName,
  wgs84ToLv95,
} from "../support/source-model.ts";

/**
 * Every joined record of every endpoint, through wrangler dev (workerd), against its source rows
 * read independently of the generator's readers and joins (test/support/source-model.ts): the
 * German localities (Open Postal Codes joined by name within the row's county, the street list's
 * localities), the streets of the fixture, the Swiss and Liechtenstein localities and streets, the
 * Austrian streets and localities; then the original's rules this build follows, one by one.
 */
type Json = Record<string, unknown>;
let server: RunningServer;
const get = client(() => server);
const pages = (path: string) => allPages(get, path);
let streetFile = "";
let swissFile = "";

beforeAll(async () => {
  const built = await buildFixture(FIXTURE_BUDGET);
  streetFile = built.sources["de-streets"] ?? "";
  swissFile = built.sources["ch-streets"] ?? "";
  server = await startServer(built.dir);
});
afterAll(async () => server?.stop());

/** A JSON record's value at a dotted path, as text; undefined when absent. */
const at = (record: unknown, path: string): string | undefined => {
  let value = record;
  for (const name of path.split("."))
    value = typeof value === "object" && value !== null ? (value as Json)[name] : undefined;
  return value === undefined ? undefined : String(value);
};
const q = encodeURIComponent;
/** The problems of a list of records, at most 20 shown. */
const problems = (records: readonly Json[], check: (record: Json) => string | undefined) =>
  records.flatMap((r) => check(r) ?? []).slice(0, 20);

const streetRows = () =>
  readFileSync(streetFile, "utf8")
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l !== "")
    .map(parseCsvLine)
    .map(
      ([
        name = "",
        postalCode = "",
        locality = "",
        regionalKey = "",
        borough = "",
        suburb = "",
      ]) => ({ name, postalCode, locality, regionalKey, borough, suburb }),
    )
    .filter((r) => GV.municipalities.has(r.regionalKey));

/** The municipality, district and state a German record must carry for its municipality key (the original's 00 rule for districts). */
function deUnitsProblem(r: Json): string | undefined {
  const key = at(r, "municipality.key") ?? "";
  const m = GV.municipalities.get(key);
  const district = key.slice(3, 5) === "00" ? undefined : GV.districts.get(key.slice(0, 5));
  const expected = {
    municipality: `${m?.name}|${GV_TYPES[m?.type ?? 0]}`,
    district:
      district === undefined
        ? undefined
        : `${key.slice(0, 5)}|${district.name}|${GV_TYPES[district.type]}`,
    state: `${key.slice(0, 2)}|${GV.states.get(key.slice(0, 2))?.name}`,
  };
  const actual = {
    municipality: `${at(r, "municipality.name")}|${at(r, "municipality.type")}`,
    district:
      at(r, "district.key") === undefined
        ? undefined
        : `${at(r, "district.key")}|${at(r, "district.name")}|${at(r, "district.type")}`,
    state: `${at(r, "federalState.key")}|${at(r, "federalState.name")}`,
  };
  return m !== undefined && JSON.stringify(actual) === JSON.stringify(expected)
    ? undefined
    : `${JSON.stringify(r)}: expected ${JSON.stringify(expected)}`;
}

describe("every joined record of every endpoint, against its source rows", () => {
  let localities: Json[] = [];
  beforeAll(async () => {
    localities = await pages("/de/Localities?postalCode=.");
  });
  const id = (r: Json) => `${at(r, "postalCode")}|${at(r, "name")}|${at(r, "municipality.key")}`;

  it("German localities: from the street list where it has the postal code, else an Open Postal Codes row of the same state whose county is the municipality's district (zero cross-district joins), named as the municipality officially is", () => {
    const streets = streetRows();
    // The street list covers its postal codes in its own states only (Berlin's 15537 keeps Brandenburg's Erkner).
    const streetCodes = new Set(streets.map((s) => `${s.postalCode}|${s.regionalKey.slice(0, 2)}`));
    const fromRows = (r: Json) => {
      const [code, name, key] = [
        at(r, "postalCode") ?? "",
        at(r, "name") ?? "",
        at(r, "municipality.key") ?? "",
      ];
      if (streetCodes.has(`${code}|${key.slice(0, 2)}`))
        return streets.some(
          (s) => s.postalCode === code && s.locality === name && s.regionalKey === key,
        );
      const official = GV.municipalities.get(key)?.name ?? "";
      const inDistrict = POST_CODES.filter(
        (row) =>
          row.postalCode === code &&
          row.state === at(r, "federalState.name") &&
          (row.county === ""
            ? key.startsWith(at(r, "federalState.key") ?? "-")
            : countyDistrict(row.state, row.county) === key.slice(0, 5)),
      );
      // A town part (a row naming no municipality of its district) may be placed in a municipality of that district.
      const townPart = (city: string) =>
        ![...GV.municipalities].some(
          ([k, m]) => k.startsWith(key.slice(0, 5)) && namesRelated(city, m.name),
        );
      return (
        name === shortName(official) &&
        inDistrict.some((row) => namesRelated(row.city, official) || townPart(row.city))
      );
    };
    expect(localities.length).toBeGreaterThan(8_000);
    expect(problems(localities, deUnitsProblem)).toEqual([]);
    expect(
      problems(localities, (r) =>
        fromRows(r) ? undefined : `${id(r)}: no source row in its district`,
      ),
    ).toEqual([]);
  });

  it("German localities by state, government region and district: each view holds exactly the localities of its unit", async () => {
    const byView = async (paths: readonly string[]) =>
      (await inParallel(paths, 8, async (path) => ({ path, records: await pages(path) }))).flatMap(
        ({ path, records }) => records.map((r) => ({ key: path.split("/")[3] ?? "", r })),
      );
    const states = await byView(
      [...GV.states.keys()].map((k) => `/de/FederalStates/${k}/Localities`),
    );
    expect(states.filter(({ key, r }) => at(r, "federalState.key") !== key)).toEqual([]);
    expect(states.map(({ r }) => id(r)).sort()).toEqual(localities.map(id).sort());
    const regions = await byView(
      [...GV.regions.keys()].map((k) => `/de/GovernmentRegions/${k}/Localities`),
    );
    expect(
      regions.filter(({ key, r }) => !(at(r, "municipality.key") ?? "").startsWith(key)),
    ).toEqual([]);
    const inRegions = localities.filter(
      (r) =>
        GV.regions.has((at(r, "municipality.key") ?? "").slice(0, 3)) &&
        at(r, "district.key") !== undefined,
    );
    expect(regions.map(({ r }) => id(r)).sort()).toEqual(inRegions.map(id).sort());
    const districts = await byView(
      [...GV.districts.keys()].map((k) => `/de/Districts/${k}/Localities`),
    );
    expect(districts.filter(({ key, r }) => at(r, "district.key") !== key)).toEqual([]);
    expect(districts.map(({ r }) => id(r)).sort()).toEqual(
      localities
        .filter((r) => at(r, "district.key") !== undefined)
        .map(id)
        .sort(),
    );
  });

  it("German streets: each is a row of the street list with its RegionalKey's municipality, district and state; every row is served", async () => {
    const rows = streetRows();
    const names = [...new Map(rows.map((r) => [r.locality.toLowerCase(), r.locality])).values()];
    const served = (
      await inParallel(names, 8, (name) => pages(`/de/Streets?locality=${q(name)}`))
    ).flat();
    const key = (...values: (string | undefined)[]) => values.map((v) => v ?? "").join("|");
    const rowKeys = new Set(
      rows.map((r) => key(r.name, r.postalCode, r.locality, r.borough, r.suburb, r.regionalKey)),
    );
    expect(problems(served, deUnitsProblem)).toEqual([]);
    const servedKeys = served.map((s) =>
      key(
        ...["name", "postalCode", "locality", "borough", "suburb", "municipality.key"].map((path) =>
          at(s, path),
        ),
      ),
    );
    expect(servedKeys.filter((k) => !rowKeys.has(k))).toEqual([]);
    expect(servedKeys.length).toBe(rowKeys.size);
  });

  it("Swiss and Liechtenstein localities: a register row of that postal code, name and BFS number, the commune's district and canton from the BFS register, the register's point", async () => {
    const problem = (r: Json) => {
      const [code, name, commune] = [
        at(r, "postalCode"),
        at(r, "name"),
        at(r, "commune.key") ?? "",
      ];
      const row = LOCALITY_REGISTER.find(
        (l) => l.postalCode === code && l.name === name && l.communeKey === commune,
      );
      if (row === undefined) return `${code} ${name} ${commune}: no register row`;
      const { east, north } = wgs84ToLv95(Number(at(r, "latitude")), Number(at(r, "longitude")));
      // The published inverse approximation errs by up to about 3 m at the edges (Geneva).
      if (Math.hypot(east - row.east, north - row.north) > 3.5)
        return `${code} ${name}: ${east},${north} is not the register's ${row.east},${row.north}`;
      if (LI_COMMUNES.has(commune))
        return at(r, "commune.name") === LI_COMMUNES.get(commune)
          ? undefined
          : `${code} ${name}: commune`;
      const c = CH_COMMUNES.get(commune);
      const canton = CH_CANTONS.get(c?.district?.canton ?? "");
      const expected = [
        c?.name,
        c?.shortName,
        c?.district?.key,
        c?.district?.name,
        c?.district?.shortName,
        canton?.key,
        canton?.name,
        row.canton,
      ];
      const actual = [
        "commune.name",
        "commune.shortName",
        "district.key",
        "district.name",
        "district.shortName",
        "canton.key",
        "canton.name",
        "canton.shortName",
      ].map((path) => at(r, path));
      return JSON.stringify(actual) === JSON.stringify(expected)
        ? undefined
        : `${code} ${name}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`;
    };
    const ch = await pages("/ch/Localities?postalCode=.");
    const li = await pages("/li/Localities?postalCode=.");
    expect(ch.length).toBeGreaterThan(5_000);
    expect(problems([...ch, ...li], problem)).toEqual([]);
    const chId = (r: Json) => `${at(r, "postalCode")}|${at(r, "name")}|${at(r, "commune.key")}`;
    const cantons = (
      await inParallel([...CH_CANTONS.keys()], 8, async (k) =>
        (await pages(`/ch/Cantons/${k}/Localities`)).map((r) => ({ k, r })),
      )
    ).flat();
    expect(cantons.filter(({ k, r }) => at(r, "canton.key") !== k)).toEqual([]);
    expect(cantons.map(({ r }) => chId(r)).sort()).toEqual(ch.map(chId).sort());
    // A district by its number and by its historical number: the same view.
    const districts = await inParallel(CH_DISTRICTS, 8, async (d) => ({
      d,
      byKey: await get(`/ch/Districts/${d.key}/Localities?pageSize=50`),
      byHistory: await get(`/ch/Districts/${d.historicalCode}/Localities?pageSize=50`),
      all: await pages(`/ch/Districts/${d.key}/Localities`),
    }));
    expect(
      districts
        .filter(
          ({ byKey, byHistory }) =>
            byKey.text !== byHistory.text ||
            byKey.headers["x-total-count"] !== byHistory.headers["x-total-count"],
        )
        .map(({ d }) => d.key),
    ).toEqual([]);
    expect(
      districts.flatMap(({ d, all }) => all.filter((r) => at(r, "district.key") !== d.key)),
    ).toEqual([]);
    expect(districts.flatMap(({ all }) => all.map(chId)).sort()).toEqual(ch.map(chId).sort());
  });

  it("Swiss and Liechtenstein streets: an entry of the street directory (each ZIP_LABEL locality), its commune by COM_FOSNR with the commune's district and canton, its status; every entry of a commune in force is served once", async () => {
    const entries = readFileSync(swissFile, "utf8")
      .replace(/^\uFEFF/, "")
      .split(/\r?\n/)
      .slice(1)
      .filter((l) => l !== "")
      .flatMap((line) => {
        const [key = "", name = "", labels = "", communeKey = "", , , , status = ""] =
          line.split(";");
        return labels.split(/, (?=\d{4} )/).map((label) => ({
          key,
          name,
          postalCode: label.slice(0, 4),
          locality: label.slice(5),
          communeKey,
          status,
        }));
      })
      .filter((e) => CH_COMMUNES.has(e.communeKey) || LI_COMMUNES.has(e.communeKey));
    const country = (communeKey: string) => (LI_COMMUNES.has(communeKey) ? "li" : "ch");
    const views = [
      ...new Map(
        entries.map((e) => [`${country(e.communeKey)}|${e.locality.toLowerCase()}`, e]),
      ).values(),
    ];
    const served = (
      await inParallel(views, 8, (e) =>
        pages(`/${country(e.communeKey)}/Streets?locality=${q(e.locality)}`),
      )
    ).flat();
    const STATUS: Readonly<Record<string, string>> = {
      "": "None",
      real: "Real",
      planned: "Planned",
      outdated: "Outdated",
    };
    const entryId = (...values: (string | undefined)[]) => values.join("|");
    const expected = entries.map((e) =>
      entryId(e.key, e.name, e.postalCode, e.locality, e.communeKey, STATUS[e.status]),
    );
    const actual = served.map((s) =>
      entryId(
        ...["key", "name", "postalCode", "locality", "commune.key", "status"].map((path) =>
          at(s, path),
        ),
      ),
    );
    expect(actual.sort()).toEqual(expected.sort());
    const unitsProblem = (s: Json) => {
      const key = at(s, "commune.key") ?? "";
      if (LI_COMMUNES.has(key))
        return at(s, "commune.name") === LI_COMMUNES.get(key) && at(s, "district") === undefined
          ? undefined
          : `${key}: LI commune`;
      const c = CH_COMMUNES.get(key);
      const canton = CH_CANTONS.get(c?.district?.canton ?? "");
      const [expectedUnits, actualUnits] = [
        [c?.name, c?.district?.key, canton?.key, canton?.shortName],
        [
          at(s, "commune.name"),
          at(s, "district.key"),
          at(s, "canton.key"),
          at(s, "canton.shortName"),
        ],
      ];
      return JSON.stringify(expectedUnits) === JSON.stringify(actualUnits)
        ? undefined
        : `${at(s, "key")}: ${JSON.stringify(actualUnits)} ≠ ${JSON.stringify(expectedUnits)}`;
    };
    expect(problems(served, unitsProblem)).toEqual([]);
  });

  it("Austrian streets and localities: a row of the street directory, the district by the Gemeindecode's first three digits, the municipality's status from the Gemeindeliste", async () => {
    const names = [...new Set(AT_STREETS.map((s) => s.locality))];
    const streets = (
      await inParallel(names, 8, (name) => pages(`/at/Streets?locality=${q(name)}`))
    ).flat();
    const localities = await pages("/at/Localities?postalCode=.");
    const problem = (r: Json, isStreet: boolean) => {
      const row = AT_STREETS.find(
        (s) =>
          (isStreet
            ? s.key === at(r, "key") && s.name === at(r, "name") && s.locality === at(r, "locality")
            : s.localityKey === at(r, "key") && s.locality === at(r, "name")) &&
          s.postalCode === at(r, "postalCode") &&
          s.municipalityCode === at(r, "municipality.code"),
      );
      if (row === undefined) return `${JSON.stringify(r)}: no row`;
      const expected = [
        row.municipalityKey,
        row.municipalityName,
        AT_STATUS_BY_CODE.get(row.municipalityCode),
        row.municipalityCode.slice(0, 3),
      ];
      const actual = [
        at(r, "municipality.key"),
        at(r, "municipality.name"),
        at(r, "municipality.status"),
        at(r, "district.code"),
      ];
      return JSON.stringify(actual) === JSON.stringify(expected)
        ? undefined
        : `${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`;
    };
    expect(streets).toHaveLength(AT_STREETS.length);
    expect(problems(streets, (r) => problem(r, true))).toEqual([]);
    expect(localities.length).toBeGreaterThan(0);
    expect(problems(localities, (r) => problem(r, false))).toEqual([]);
  });

  it("the join report in the downloads manifest: every row counted once, zero cross-district joins, every renaming served and from a source row", async () => {
    const manifest = JSON.parse((await get("/downloads/index.json")).text) as {
      joins: {
        source: string;
        rows: number;
        joined: number;
        unmatched: number;
        ambiguous: number;
        otherSkips: Record<string, number>;
        crossDistrict?: number;
        renamed: { postalCode: string; from: string; to: string; municipalityKey: string }[];
        skipped: { postalCode: string; name: string; cause: string }[];
      }[];
    };
    expect(manifest.joins.map((j) => j.source)).toEqual([
      "de-streets",
      "de-postcodes",
      "at-municipalities",
      "at-streets",
      "ch-districts",
      "ch-communes",
      "ch-localities",
      "ch-streets",
    ]);
    for (const join of manifest.joins)
      expect(
        join.joined +
          join.unmatched +
          join.ambiguous +
          Object.values(join.otherSkips).reduce((a, b) => a + b, 0),
        join.source,
      ).toBe(join.rows);
    const postCodes = manifest.joins.find((j) => j.source === "de-postcodes");
    expect(postCodes).toMatchObject({ rows: POST_CODES.length, crossDistrict: 0 });
    expect(postCodes?.skipped.length).toBe(
      (postCodes?.unmatched ?? 0) + (postCodes?.ambiguous ?? 0),
    );
    const served = new Set(
      localities.map((r) => `${at(r, "postalCode")}|${at(r, "name")}|${at(r, "municipality.key")}`),
    );
    expect(
      postCodes?.renamed.filter(
        (n) =>
          !served.has(`${n.postalCode}|${n.to}|${n.municipalityKey}`) ||
          !POST_CODES.some((row) => row.postalCode === n.postalCode && row.city === n.from),
      ),
    ).toEqual([]);
    expect(postCodes?.renamed.length).toBeGreaterThan(500);
  });
});

describe("the original's rules", () => {
  const json = async (path: string) => JSON.parse((await get(path)).text) as Json[];
  const csv = async (path: string) => parseCsvBody((await get(path, { Accept: "text/csv" })).text);

  it("Gladbach (56566, Landkreis Neuwied) is never joined to a namesake in another district: a part of Neuwied, placed there and reported", async () => {
    expect(
      (await json("/de/Localities?postalCode=56566")).filter(
        (r) => at(r, "district.key") !== "07138",
      ),
    ).toEqual([]);
    expect(
      (await pages("/de/Districts/07231/Localities")).filter(
        (r) => at(r, "postalCode") === "56566",
      ),
    ).toEqual([]);
    const manifest = JSON.parse((await get("/downloads/index.json")).text) as {
      joins: {
        source: string;
        renamed: { postalCode: string; from: string; to: string; placedBy?: string }[];
        skipped: { postalCode: string }[];
      }[];
    };
    const postCodes = manifest.joins.find((j) => j.source === "de-postcodes");
    expect(postCodes?.renamed).toContainEqual(
      expect.objectContaining({
        postalCode: "56566",
        from: "Gladbach",
        to: "Neuwied",
        placedBy: "siblings",
      }),
    );
    expect(postCodes?.skipped.filter((s) => s.postalCode === "56566")).toEqual([]);
  });

  it("a postal code Berlin shares with Brandenburg lists the Brandenburg towns beside Berlin", async () => {
    const names = async (code: string) =>
      (await json(`/de/Localities?postalCode=%5E${code}%24`)).map(
        (r) => `${at(r, "name") ?? ""} ${at(r, "federalState.key") ?? ""}`,
      );
    // Berlin's part of each code comes from the street list (the fixture's is a cut of it) or from the row naming Berlin.
    expect(await names("15537")).toEqual([
      "Berlin 11",
      "Erkner 12",
      "Gosen-Neu Zittau 12",
      "Grünheide (Mark) 12",
    ]);
    expect((await names("15566")).filter((n) => n.endsWith(" 12"))).toEqual([
      "Schöneiche bei Berlin 12",
    ]);
    expect((await names("15569")).filter((n) => n.endsWith(" 12"))).toEqual(["Woltersdorf 12"]);
    expect((await json("/de/Localities?name=Erkner")).map((r) => at(r, "postalCode"))).toEqual([
      "15537",
    ]);
  });

  it("places town parts in their municipality: Wehlen (01829) in Stadt Wehlen, Schwarzheide N.L. (01987) in Schwarzheide", async () => {
    expect((await json("/de/Localities?postalCode=%5E01829%24")).map((r) => at(r, "name"))).toEqual(
      ["Stadt Wehlen"],
    );
    expect((await json("/de/Localities?postalCode=%5E01987%24")).map((r) => at(r, "name"))).toEqual(
      ["Schwarzheide"],
    );
  });

  it("Frankfurt (Oder) and Halle (Saale) under their official names, apart from Frankfurt am Main and the source's spellings", async () => {
    const oder = await json("/de/Localities?name=%5EFrankfurt%20%5C(Oder%5C)%24");
    expect(oder.map((r) => at(r, "postalCode"))).toEqual(["15230", "15232", "15234", "15236"]);
    expect(new Set(oder.map((r) => at(r, "municipality.key")))).toEqual(new Set(["12053000"]));
    expect(
      (await json("/de/Localities?name=%5EFrankfurt%20am%20Main%24")).filter(
        (r) => at(r, "federalState.key") !== "06",
      ),
    ).toEqual([]);
    const halle = await pages("/de/Localities?name=%5Ehalle%20%5C(saale%5C)%24");
    expect(halle.length).toBeGreaterThanOrEqual(13);
    expect(new Set(halle.map((r) => at(r, "municipality.key")))).toEqual(new Set(["15002000"]));
    expect(await json("/de/Localities?name=Halle%2F%20Saale")).toEqual([]);
    // Unescaped, the parentheses are a group, as in the original: "Frankfurt Oder" is no locality's name.
    expect(await json("/de/Localities?name=Frankfurt%20(Oder)")).toEqual([]);
  });

  it("Berlin and Hamburg have no district on any endpoint, JSON or CSV, and are listed under their state, not under a district", async () => {
    const berlin = [
      ...(await json("/de/Streets?locality=Berlin")),
      ...(await json("/de/Localities?postalCode=%5E10117%24")),
      ...(await json("/de/FederalStates/11/Municipalities")),
      ...(await json("/de/FederalStates/11/Localities")),
    ];
    const hamburg = [
      ...(await json("/de/FederalStates/02/Municipalities")),
      ...(await pages("/de/FederalStates/02/Localities")),
    ];
    expect(berlin.length).toBeGreaterThan(50);
    expect(hamburg.length).toBeGreaterThan(50);
    expect([...berlin, ...hamburg].filter((r) => "district" in r)).toEqual([]);
    expect(
      [...berlin, ...hamburg].filter(
        (r) => !["11000000", "02000000"].includes(at(r, "municipality.key") ?? at(r, "key") ?? ""),
      ),
    ).toEqual([]);
    for (const path of [
      "/de/Streets?locality=Berlin",
      "/de/FederalStates/02/Localities",
      "/de/FederalStates/11/Municipalities",
    ])
      expect(
        (await csv(path)).filter((row) => row["District.Key"] !== ""),
        path,
      ).toEqual([]);
    for (const path of [
      "/de/Districts/11000/Municipalities",
      "/de/Districts/11000/Localities",
      "/de/Districts/02000/Municipalities",
      "/de/Districts/02000/Localities",
    ])
      expect((await get(path)).text, path).toBe("[]");
  });

  it("an Austrian district is matched by its key or its code: Vienna's key 900 lists all 23 Bezirke, each code its own", async () => {
    const vienna = await json("/at/Districts/900/Municipalities");
    expect(vienna).toHaveLength(23);
    const byCode = (
      await inParallel(vienna, 8, async (m) =>
        json(`/at/Districts/${at(m, "district.code")}/Municipalities`),
      )
    ).flat();
    expect(byCode.map((m) => at(m, "code")).sort()).toEqual(
      vienna.map((m) => at(m, "code")).sort(),
    );
    expect((await json("/at/Districts/901/Municipalities")).map((m) => at(m, "name"))).toEqual([
      "Wien-Innere Stadt",
    ]);
  });

  it("a Swiss canton carries its historical code, and is matched by it (the canton number); a district by number or historical number", async () => {
    const cantons = await json("/ch/Cantons");
    expect(cantons[0]).toEqual({ key: "1", historicalCode: "1", name: "Zürich", shortName: "ZH" });
    // The original's ORDER BY on the text key.
    expect(cantons.map((c) => at(c, "key"))).toEqual([
      "1",
      ...Array.from({ length: 10 }, (_, i) => String(10 + i)),
      "2",
      ...Array.from({ length: 7 }, (_, i) => String(20 + i)),
      "3",
      "4",
      "5",
      "6",
      "7",
      "8",
      "9",
    ]);
    expect(Object.keys(cantons[0] ?? {})).toEqual(["key", "historicalCode", "name", "shortName"]);
    expect((await get("/ch/Cantons", { Accept: "text/csv" })).text.split("\r\n")[1]).toBe(
      "1,1,Zürich,ZH",
    );
    const [byKey, byHistory] = await Promise.all([
      get("/ch/Districts/101/Communes"),
      get("/ch/Districts/10053/Communes"),
    ]);
    expect(byHistory.text).toBe(byKey.text);
    expect(JSON.parse(byKey.text)).not.toEqual([]);
    expect((await get("/ch/Cantons/ZH/Localities")).text).toBe("[]");
  });

  it("an Austrian street's and locality's municipality carries its status (absent for ordinary municipalities), in JSON and CSV", async () => {
    const [street] = await json("/at/Streets?locality=Bregenz&pageSize=1");
    expect(street?.["municipality"]).toEqual({
      key: "80207",
      code: "80207",
      name: "Bregenz",
      status: "Stadtgemeinde",
    });
    expect((await csv("/at/Streets?locality=Bregenz&pageSize=1"))[0]?.["Municipality.Status"]).toBe(
      "Stadtgemeinde",
    );
    const ordinary = (await pages("/at/Localities?postalCode=.")).find(
      (r) => AT_STATUS_BY_CODE.get(at(r, "municipality.code") ?? "") === undefined,
    );
    expect(ordinary).toBeDefined();
    expect(Object.keys((ordinary?.["municipality"] as Json | undefined) ?? {})).toEqual([
      "key",
      "code",
      "name",
    ]);
  });

  it("Swiss and Liechtenstein localities end with WGS84 latitude and longitude, in JSON and CSV", async () => {
    const check = async (path: string) => {
      const [record] = await json(path);
      expect(Object.keys(record ?? {}).slice(-2), path).toEqual(["latitude", "longitude"]);
      expect(typeof record?.["latitude"], path).toBe("number");
      const [row] = await csv(path);
      expect(Object.keys(row ?? {}).slice(-2), path).toEqual(["Latitude", "Longitude"]);
      expect(row?.["Latitude"], path).toBe(String(record?.["latitude"]));
    };
    await check("/ch/Localities?postalCode=8001");
    await check("/li/Localities?name=Vaduz");
    await check("/ch/Cantons/1/Localities?pageSize=1");
  });

  it("answers the five Localities endpoints by parent and the Swiss and Liechtenstein streets", async () => {
    const answers: RawResponse[] = await Promise.all(
      [
        "/de/FederalStates/09/Localities",
        "/de/GovernmentRegions/091/Localities",
        "/de/Districts/09189/Localities",
        "/ch/Cantons/1/Localities",
        "/ch/Districts/101/Localities",
        "/ch/Streets?locality=Z%C3%BCrich",
        "/li/Streets?locality=Vaduz",
      ].map((path) => get(path)),
    );
    expect(answers.map((a) => [a.status, Number(a.headers["x-total-count"]) > 0])).toEqual(
      answers.map(() => [200, true]),
    );
  });
});
