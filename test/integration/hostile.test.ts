import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandler } from "../../generator/edge/handler.ts";
import { buildFixture, FIXTURE_BUDGET, fixtureStreets, tempDir } from "../support/fixture.ts";
import { localAssets } from "../support/local-assets.ts";
import { modelByLocality, readModelStreets, type ModelStreet } from "../support/model.ts";
import { expectVerdict, verdictOf } from "../support/oracle.ts";
import {
  filterMatches,
  parseStreetFilter,
  type FilterParameter,
} from "../../generator/contract/search/filter.ts";
import { rawRequest, startServer, type RawResponse, type RunningServer } from "../support/http.ts";

/**
 * Property-based: generated requests (odd query strings, encodings, huge numbers, repeated and
 * case-varied names, a parameter repeated up to 3,000 times, traversal attempts, internal files
 * under other spellings, values at and over their length limits up to 40,000 characters, other
 * methods, odd Accept headers) against
 * the fixture build. Every answer must be what an independent oracle expects: a correct 200
 * (records and totals from a model of the source) or a 4xx problem; never a 5xx. 10,000 cases run
 * in-process against the real build files (fast); 4,000 more go through wrangler dev (workerd).
 * Planted defects (a parameter repeated in another case accepted, 200 astral characters refused,
 * page 2147483648 accepted) failed within the first 185 batches of 20 on three seeds each, so
 * 500 batches (10,000 requests, a fresh seed every run) keep a margin of 2.7 times that:
 * PLZ_PROPERTY_BATCHES=<n> runs more (the nightly runs 1,250).
 */
const IN_PROCESS_BATCHES = Number(process.env["PLZ_PROPERTY_BATCHES"] ?? 500);
const HTTP_BATCHES = 200;
const BATCH = 20;
const SEED = Number(process.env["PLZ_PROPERTY_SEED"] ?? Date.now() % 2 ** 31);

let server: RunningServer;
let inProcess: (request: Request) => Promise<Response>;
let model: Map<string, ModelStreet[]>;
let localityNames: string[];
let allStreets: ModelStreet[];

beforeAll(async () => {
  const streetsFile = fixtureStreets(tempDir("hostile"));
  model = modelByLocality(await readModelStreets(streetsFile));
  // The build merges rows that are identical (the OpenPLZ sample has some): the model does too.
  allStreets = [
    ...new Map((await readModelStreets(streetsFile)).map((s) => [JSON.stringify(s), s])).values(),
  ];
  localityNames = [...new Set(allStreets.map((s) => s.locality))];
  // A budget between the minimum and everything: some sizes are files, the others are cut.
  const { dir, summary } = await buildFixture(FIXTURE_BUDGET, streetsFile);
  const sizes = summary.plan.sizes.get("de.streets") ?? [];
  expect(summary.plan.minimumFiles).toBeLessThan(FIXTURE_BUDGET);
  expect(sizes.length).toBeGreaterThan(0);
  expect(sizes.length).toBeLessThan(50);
  inProcess = createHandler(localAssets(dir));
  server = await startServer(dir);
});
afterAll(async () => server?.stop());

interface Generated {
  method: string;
  path: string;
  params: [name: string, value: string, encoding: "component" | "raw" | "double"][];
  /** One more parameter, sent this many times after the others. */
  repeated: [name: string, value: string, times: number] | undefined;
  accept: string | undefined;
}

const caseVariant = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) =>
      [...name].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch.toLowerCase())).join(""),
    );
const paramName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("page", "pageSize", "locality", "format") },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom("page", "pageSize", "locality", "format", "name", "postalCode")
      .chain(caseVariant),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const integerText = fc.oneof(
  fc.integer({ min: 1, max: 60 }).map(String),
  fc.integer({ min: -5, max: 2 ** 33 }).map(String),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.constantFrom(
    "0",
    "-1",
    "1.5",
    "10e1",
    "+3",
    " 4",
    "4 ",
    "0x10",
    "00012",
    "2147483647",
    "2147483648",
    "",
    "abc",
    "١٢",
  ),
  // At and over the limit of 20 characters.
  fc.constantFrom(`${"0".repeat(19)}7`, `${"0".repeat(20)}7`, "1".repeat(5_000)),
);
/** Values at and over the limit of 200 characters (code points, so 200 astral ones are 400 UTF-16 units), and far over it. */
const overLong = fc.constantFrom(
  "x".repeat(200),
  "x".repeat(201),
  "😀".repeat(200),
  "😀".repeat(201),
  "\\.".repeat(100),
  "x".repeat(32_767),
  "1".repeat(40_000),
);
/**
 * Any code point but a lone surrogate (the code points of fast-check's `unit: "binary"`, whose
 * reverse mapping of every code point took 2.4 s to build, once per process, at load 8).
 */
const anyCodePoint = fc
  .oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }))
  .map((point) => String.fromCodePoint(point));
/** Built once the fixture's names are read (beforeAll), then reused: one constantFrom over every name, not one per generated parameter. */
let localityArbitrary: fc.Arbitrary<string> | undefined;
const localityText = () =>
  (localityArbitrary ??= fc.oneof(
    fc
      .constantFrom(...localityNames)
      .chain((name) =>
        fc.constantFrom(
          name,
          name.toUpperCase(),
          name.toLowerCase(),
          ` ${name} `,
          name.normalize("NFD"),
          `${name}\t`,
        ),
      ),
    fc.constantFrom(
      "../../_headers",
      "..%2F..%2F_headers",
      "..\\..\\_headers",
      "/etc/passwd",
      "\u0000",
      "__proto__",
      "constructor",
      "%",
      "%zz",
      "%FF",
      "Berlin%00",
    ),
    fc.string({ unit: anyCodePoint, maxLength: 30 }),
    fc.constant("x".repeat(10_240)),
    overLong,
  ));
/** Any other parameter's value (built once, as every arbitrary here: building one is dearer than drawing from it). */
const otherValue = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.oneof(
      fc.constantFrom("csv", "json", "CSV", "xml", ""),
      fc.string({ maxLength: 12 }),
    ),
  },
  { weight: 1, arbitrary: overLong },
);
const paramValue = (name: string) =>
  /^page(size)?$/i.test(name)
    ? integerText
    : /^locality$/i.test(name)
      ? localityText()
      : otherValue;
/** A parameter sent many times, in one request of four. */
const repeatedParam = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constantFrom("page", "pageSize", "locality", "format", "name", "PAGE"),
      fc.constantFrom("1", "2", "Berlin", "csv", "x".repeat(201), "abc"),
      fc.integer({ min: 2, max: 3_000 }),
    ),
  },
);
/** The runtime answers a request line over about 131 KB itself (431, text/plain): not the Worker's to decide. */
const MAX_TARGET = 120_000;
const generated: fc.Arbitrary<Generated> = fc
  .record({
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constant("GET") },
      {
        weight: 1,
        arbitrary: fc.constantFrom("HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"),
      },
    ),
    path: fc.oneof(
      {
        weight: 10,
        arbitrary: fc.constantFrom("/de/Streets", "/de/streets", "/DE/STREETS/", "/de/Streets/"),
      },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          "/de/FederalStates",
          "/at/FederalProvinces",
          "/ch/Cantons",
          "/li/Communes",
        ),
      },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          "/",
          "/index.html",
          "/openapi.json",
          "/INDEX.HTML",
          "/_headers",
          "/_build.json",
          "/_l/ch.cantons.json",
          "/de/Streets/../_headers",
          "/%2e%2e/_headers",
          "/de//Streets",
          "/de/Streets%2F..",
          "/de/Streets\\..",
          "/de/Straßen",
        ),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "/%5Fbuild.json",
          "/%5fbuild.json",
          "//_build.json",
          "/%2F_build.json",
          "/%5Froutes.json",
          "/%5Fc/de.streets/json/0.bin",
          "//_c/de.streets/json/0.bin",
          "/%69ndex.html",
        ),
      },
    ),
    params: fc.array(
      paramName.chain((name) =>
        fc.tuple(
          fc.constant(name),
          paramValue(name),
          fc.constantFrom<"component" | "raw" | "double">(
            "component",
            "component",
            "raw",
            "double",
          ),
        ),
      ),
      { maxLength: 5 },
    ),
    repeated: repeatedParam,
    accept: fc.option(
      fc.oneof(
        fc.constantFrom(
          "text/csv",
          "application/json",
          "*/*",
          "text/csv;q=0",
          "text/csv, application/json;q=0.1",
          "text/*",
          "application/xml",
        ),
        fc.string({ maxLength: 20 }),
      ),
      { nil: undefined },
    ),
  })
  .filter((request) => target(request).length <= MAX_TARGET);

function encode(value: string, encoding: Generated["params"][number][2]): string {
  if (encoding === "component") return encodeURIComponent(value);
  if (encoding === "double") return encodeURIComponent(encodeURIComponent(value));
  return value.replace(/[#&\s]/g, (ch) => encodeURIComponent(ch)); // raw, but it must stay one parameter of a valid request line
}

/** Each request's target, made once: the filter that keeps requests under MAX_TARGET made it already. */
const targets = new WeakMap<Generated, string>();
function target(request: Generated): string {
  const made = targets.get(request);
  if (made !== undefined) return made;
  const repeated =
    request.repeated === undefined
      ? []
      : Array<string>(request.repeated[2]).fill(
          `${request.repeated[0]}=${encodeURIComponent(request.repeated[1])}`,
        );
  const query = [
    ...request.params.map(
      ([name, value, encoding]) => `${encodeURIComponent(name)}=${encode(value, encoding)}`,
    ),
    ...repeated,
  ].join("&");
  const result = `${request.path}${query === "" ? "" : `?${query}`}`;
  targets.set(request, result);
  return result;
}

/** The contract's verdict, plus this data's: a page of a locality holds the model's streets of that page. */
function check(request: Generated, sent: string, response: RawResponse, cdn: boolean): void {
  const verdict = verdictOf(request.method, sent, undefined, cdn, (value) =>
    model.has(value.normalize("NFC").trim().toLowerCase()),
  );
  const context = `${request.method} ${sent.slice(0, 300)} (Accept: ${request.accept})`;
  const total = expectVerdict(verdict, response, context, request.method);
  if (
    total === undefined ||
    !("kind" in verdict) ||
    verdict.kind !== "page" ||
    request.method === "HEAD"
  )
    return;
  const key = (verdict.values.get("locality") ?? "").normalize("NFC").trim().toLowerCase();
  const given = [...verdict.values] as [FilterParameter, string][];
  const view = given.length === 1 && given[0]?.[0] === "locality" && model.has(key);
  const filters = view ? [] : given;
  if (filters.length > 0) {
    // Name, postal code or a locality that names none: the streets that pass every filter (their order is the search oracle's test).
    const parsed = filters.map(
      ([name, value]) => [name, parseStreetFilter(name, value.normalize("NFC"))] as const,
    );
    const passing = allStreets.filter((s) =>
      parsed.every(([name, filter]) => filterMatches(filter, s[name])),
    );
    expect(total, context).toBe(passing.length);
    return;
  }
  const locality = model.get(key) ?? [];
  expect(total, context).toBe(locality.length);
  const streets = locality.slice((verdict.page - 1) * verdict.size, verdict.page * verdict.size);
  if (response.headers["content-type"]?.startsWith("text/csv")) return;
  const records = JSON.parse(response.text) as { name: string; postalCode: string }[];
  expect(
    records.map((r) => `${r.name}|${r.postalCode}`),
    context,
  ).toEqual(streets.map((s) => `${s.name}|${s.postalCode}`));
}

/** Sends a request; `cdn`: through the CDN's routing (wrangler dev), not to the Worker's handler alone. */
type Send = ((request: Generated, sent: string) => Promise<RawResponse>) & {
  readonly cdn?: boolean;
};

const overHttp: Send = Object.assign(
  (request: Generated, sent: string) =>
    rawRequest(server.origin, sent, {
      method: request.method,
      headers: request.accept === undefined ? {} : { Accept: request.accept },
    }),
  { cdn: true },
);

const viaHandler: Send = async (request, sent) => {
  const response = await inProcess(
    new Request(`http://localhost${sent}`, {
      method: request.method,
      headers: request.accept === undefined ? {} : { Accept: request.accept },
    }),
  );
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    rawHeaders: [],
    headers: Object.fromEntries(response.headers),
    body,
    // Read only where a check reads it: most bodies are never decoded (the docs page is large).
    get text() {
      return body.toString("utf8");
    },
  };
};

async function run(send: Send, batches: number): Promise<number> {
  let sentCount = 0;
  const details = await fc.check(
    fc.asyncProperty(fc.array(generated, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      await Promise.all(
        batch.map(async (request) => {
          const sent = target(request);
          check(request, sent, await send(request, sent), send.cdn === true);
          sentCount++;
        }),
      );
    }),
    { numRuns: batches, seed: SEED, endOnFailure: true },
  );
  // Counterexamples can hold 10 KB values: report the failing assertion and the seed, not the whole batch.
  if (details.failed)
    throw new Error(
      `property failed (seed ${SEED}, path ${details.counterexamplePath}): ${String(details.errorInstance).slice(0, 2000)}`,
    );
  return sentCount;
}

describe("hostile requests", () => {
  it(`${IN_PROCESS_BATCHES * BATCH} generated requests in-process get a correct 200 or a 4xx problem, never a 5xx`, async () => {
    process.stderr.write(`fast-check seed ${SEED} (replay with PLZ_PROPERTY_SEED=${SEED})\n`);
    expect(await run(viaHandler, IN_PROCESS_BATCHES)).toBeGreaterThanOrEqual(
      IN_PROCESS_BATCHES * BATCH,
    );
  });

  it(`${HTTP_BATCHES * BATCH} generated requests through wrangler dev get the same treatment`, async () => {
    expect(await run(overHttp, HTTP_BATCHES)).toBeGreaterThanOrEqual(HTTP_BATCHES * BATCH);
  });
});
