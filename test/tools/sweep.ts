/**
 * `npm run sweep -- --dir DIR --source FILE`: a correctness sweep of a built street list through
 * the local server (`npm run serve`), one server for every request. Every page size and every page (plus one past the end) of the three largest
 * localities, and every page size of 200 random ones (pages 1, 2, middle, last, one past), is
 * checked against an independent model of the source (fast-csv, ICU collation): status, the four
 * paging headers, and the records in order (every fifth request as CSV).
 */
import { parseString } from "fast-csv";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { modelByLocality, readModelStreets, type ModelStreet } from "../support/model.ts";
import { startServer } from "../support/http.ts";

const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    source: { type: "string", default: "/tmp/national-streets.csv" },
    largest: { type: "string", default: "3" },
    random: { type: "string", default: "200" },
    concurrency: { type: "string", default: "8" },
  },
});
if (args.dir === undefined) throw new Error("--dir DIR (a build of --source) is required");
const model = modelByLocality(await readModelStreets(resolve(args.source)));
const byCount = [...model].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
let seed = 7;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const largest = Number(args.largest);
const rest = byCount.slice(largest);
const picked = new Set<number>();
while (picked.size < Math.min(Number(args.random), rest.length))
  picked.add(Math.floor(random() * rest.length));
const localities = [
  ...byCount.slice(0, largest),
  ...[...picked].map((i) => rest[i]).filter((x) => x !== undefined),
];

interface Check {
  locality: string;
  size: number;
  page: number;
  csv: boolean;
}
const checks: Check[] = [];
for (const [index, [locality, streets]] of localities.entries()) {
  for (let size = 1; size <= 50; size++) {
    const last = Math.ceil(streets.length / size);
    // The three largest: every page. The random ones: first, second, middle, last and one past.
    const pages =
      index < largest
        ? Array.from({ length: last + 1 }, (_, i) => i + 1)
        : [...new Set([1, 2, Math.ceil(last / 2), last, last + 1])].filter((p) => p <= last + 1);
    for (const page of pages) checks.push({ locality, size, page, csv: (size + page) % 5 === 0 });
  }
}
process.stderr.write(
  `${localities.length} localities (largest ${byCount[0]?.[0]}: ${byCount[0]?.[1].length}), ${checks.length} requests\n`,
);

// One server for the whole sweep: its memory does not grow with the requests it serves.
const server = await startServer(resolve(args.dir));
const failures: string[] = [];
let done = 0;
let next = 0;
const started = performance.now();
try {
  await Promise.all(
    Array.from({ length: Number(args.concurrency) }, async () => {
      while (next < checks.length) {
        const check = checks[next++];
        if (check === undefined) break;
        const problem = await verify(check);
        if (problem !== undefined) failures.push(problem);
        if (++done % 20000 === 0)
          process.stderr.write(`${done}/${checks.length}, server RSS ${server.rssKiB()} KiB\n`);
      }
    }),
  );
} finally {
  await server.stop();
}
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `${done} requests in ${seconds.toFixed(0)} s (${(done / seconds).toFixed(0)}/s, none retried), ${failures.length === 0 ? "all correct" : `${failures.length} FAILURES, the first 20:\n${failures.slice(0, 20).join("\n")}`}\n`,
);
process.exit(failures.length === 0 ? 0 : 1);

async function verify({ locality, size, page, csv }: Check): Promise<string | undefined> {
  const streets = model.get(locality) ?? [];
  const path = `/de/Streets?locality=${encodeURIComponent(locality)}&pageSize=${size}&page=${page}`;
  // Never retried: a failed request is a finding, counted like a wrong answer.
  let response: Response;
  try {
    response = await fetch(`${server.origin}${path}`, {
      headers: { Accept: csv ? "text/csv" : "application/json" },
    });
  } catch (error) {
    return `${path}: request failed: ${error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}` : String(error)}`;
  }
  const text = await response.text();
  const headers = ["x-page", "x-page-size", "x-total-count", "x-total-pages"]
    .map((h) => response.headers.get(h))
    .join(",");
  const expectedHeaders = [page, size, streets.length, Math.ceil(streets.length / size)].join(",");
  if (response.status !== 200) return `${path}: status ${response.status} ${text.slice(0, 200)}`;
  if (headers !== expectedHeaders)
    return `${path}: headers ${headers}, expected ${expectedHeaders}`;
  const expected = streets.slice((page - 1) * size, page * size).map(fields);
  const actual = csv
    ? (await parseCsv(text)).map((r) =>
        [r["Name"], r["PostalCode"], r["Borough"], r["Suburb"]].join("|"),
      )
    : (JSON.parse(text) as Record<string, string>[]).map((r) =>
        [r["name"], r["postalCode"], r["borough"] ?? "", r["suburb"] ?? ""].join("|"),
      );
  if (actual.join("\n") !== expected.join("\n"))
    return `${path} (${csv ? "csv" : "json"}): records differ`;
  return undefined;
}

function fields(s: ModelStreet): string {
  return [s.name, s.postalCode, s.borough, s.suburb].join("|");
}

function parseCsv(text: string): Promise<Record<string, string>[]> {
  return new Promise((resolvePromise, reject) => {
    const rows: Record<string, string>[] = [];
    parseString<Record<string, string>, Record<string, string>>(text, { headers: true })
      .on("data", (r: Record<string, string>) => rows.push(r))
      .on("error", reject)
      .on("end", () => resolvePromise(rows));
  });
}
