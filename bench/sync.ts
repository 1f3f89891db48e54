/**
 * `npm run bench:sync`: `npm run sync` at national scale. Builds the synthetic national street list
 * (the whole build, as `npm run build` makes it), loads `de.streets` into a new SQLite copy, then
 * builds a copy of the list with 1% of its rows changed (a third renamed, a third removed, a third
 * added) into the same output, so that the second build's feed lists the change, and syncs the
 * copy. Each sync runs as `npm run sync` runs it, in a process of its own, and reports its own
 * wall time and peak RSS (`--json`). Prints the figures against the issue's targets: the first
 * load within 60 s and 500 MB, the 1% change within 5 s. `--check` also loads the second build
 * into a fresh copy and compares the two row by row (a minute more).
 *
 *   npm run bench:sync -- [--source FILE] [--out-dir DIR] [--every N] [--check] [--keep]
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DatabaseSync } from "node:sqlite";
import { jsonBuild } from "./build-invocation.ts";
import { ensureNationalStreets } from "./national-streets.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    source: { type: "string", default: "/tmp/national-streets.csv" },
    "out-dir": { type: "string", default: join(tmpdir(), "plz-bench-sync") },
    every: { type: "string", default: "100" },
    check: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});
const source = resolve(args.source);
const work = resolve(args["out-dir"]);
const every = Number(args.every);
const dist = join(work, "dist");
const db = join(work, "copy.sqlite");

interface SyncJson {
  action: string;
  builds: number;
  wallMs: number;
  cpuMs: number;
  peakRssMiB: number;
  datasets: {
    resource: string;
    records: number;
    added: number;
    removed: number;
    changed: number;
  }[];
}

await ensureNationalStreets(source);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const changed = join(work, "national-streets-changed.csv");
const counts = writeChanged(source, changed, every);
process.stdout.write(
  `input: ${counts.rows.toLocaleString("en")} rows; second build: ${counts.renamed} renamed, ${counts.removed} removed, ${counts.added} added (${((100 * (counts.renamed + counts.removed + counts.added)) / counts.rows).toFixed(2)}% of rows)\n`,
);

await jsonBuild(source, dist, ["--full"]);
const load = await timedSync(["--datasets", "de.streets"]);
const dbBytes = statSync(db).size;
await jsonBuild(changed, dist, []);
const apply = await timedSync([]);
const again = await timedSync([]);
let check = "not run (--check)";
if (args.check) {
  const fresh = join(work, "fresh.sqlite");
  await timedSync(["--datasets", "de.streets"], fresh);
  check = sameTable(db, fresh, "de_streets")
    ? "equal, row by row"
    : "DIFFERENT (the copy is not the fresh load)";
}
if (!args.keep) rmSync(work, { recursive: true, force: true });

const streets = (run: SyncJson) => run.datasets.find((d) => d.resource === "de.streets");
const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
const table: [string, string][] = [
  [
    "first load of de.streets",
    `${seconds(load.summary.wallMs)} (CPU ${seconds(load.summary.cpuMs)}; the process from spawn to exit ${seconds(load.processMs)}), peak RSS ${load.summary.peakRssMiB} MiB, ${(streets(load.summary)?.records ?? 0).toLocaleString("en")} records, database ${(dbBytes / 2 ** 20).toFixed(0)} MiB; target 60 s and 500 MB: ${verdict(load.summary.wallMs <= 60_000 && load.summary.peakRssMiB * 2 ** 20 <= 500e6)}`,
  ],
  [
    "applying the 1% change",
    `${seconds(apply.summary.wallMs)} (CPU ${seconds(apply.summary.cpuMs)}; the process ${seconds(apply.processMs)}), peak RSS ${apply.summary.peakRssMiB} MiB, ${apply.summary.action}, ${apply.summary.builds} build: ${describe(streets(apply.summary))}; target 5 s: ${verdict(apply.summary.action === "updated" && apply.summary.wallMs <= 5_000)}`,
  ],
  [
    "a run with nothing new",
    `${seconds(again.summary.wallMs)} (CPU ${seconds(again.summary.cpuMs)}; the process ${seconds(again.processMs)}), ${again.summary.action}`,
  ],
  ["the copy against a fresh load", check],
  ["load average (1 min) before / after", `${load.load.toFixed(1)} / ${loadavg()[0]?.toFixed(1)}`],
];
const width = Math.max(...table.map(([name]) => name.length));
process.stdout.write(
  `${table.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join("\n")}\n`,
);

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function describe(d: SyncJson["datasets"][number] | undefined): string {
  return d === undefined
    ? "–"
    : `${d.added.toLocaleString("en")} added, ${d.removed.toLocaleString("en")} removed, ${d.changed.toLocaleString("en")} changed, ${d.records.toLocaleString("en")} records`;
}

/**
 * One `npm run sync` of `dist` into `into`, as the npm script runs it (the project's Node and tsx),
 * with `--json`: its summary, and the process's wall time from spawn to exit.
 */
function timedSync(
  extra: readonly string[],
  into = db,
): Promise<{ summary: SyncJson; processMs: number; load: number }> {
  const bin = join(ROOT, "node_modules/.bin");
  const load = loadavg()[0] ?? 0;
  const started = performance.now();
  process.stderr.write(`sync ${dist} → ${into} ${extra.join(" ")}\n`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      join(bin, "tsx"),
      ["generator/cli/main.ts", "sync", "--from", dist, "--db", into, "--json", ...extra],
      {
        cwd: ROOT,
        env: { ...process.env, PATH: [bin, process.env["PATH"] ?? ""].join(delimiter) },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("exit", (code) =>
      code === 0
        ? resolvePromise({
            summary: JSON.parse(stdout) as SyncJson,
            processMs: performance.now() - started,
            load,
          })
        : reject(new Error(`sync exited with ${code}`)),
    );
  });
}

/**
 * The list with about 1% of its rows changed, spread evenly: of every `every` rows one is renamed
 * (the feed: removed and added), one removed and one added (a new street beside an existing one,
 * in the same place), each a third of the time.
 */
function writeChanged(from: string, to: string, step: number) {
  const lines = readFileSync(from, "utf8").split("\n");
  const out: string[] = [lines[0] ?? ""];
  const result = { rows: 0, renamed: 0, removed: 0, added: 0 };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line === "") continue;
    result.rows++;
    const kind = i % step === 0 ? Math.floor(i / step) % 3 : -1;
    if (kind === 0) {
      out.push(line.replace(/^("?)([^,"]+)/, (_, q: string, name: string) => `${q}${name} Nord`));
      result.renamed++;
    } else if (kind === 1) result.removed++;
    else if (kind === 2) {
      out.push(
        line,
        line.replace(/^("?)([^,"]+)/, (_, q: string) => `${q}Neue Straße ${i}`),
      );
      result.added++;
    } else out.push(line);
  }
  writeFileSync(to, `${out.join("\n")}\n`);
  return result;
}

/** Whether two copies' tables hold the same rows (compared in the same order, in SQLite). */
function sameTable(a: string, b: string, table: string): boolean {
  const database = new DatabaseSync(a);
  database.exec(`ATTACH DATABASE '${b.replaceAll("'", "''")}' AS fresh`);
  const differ = (x: string, y: string) =>
    Number(
      database
        .prepare(`SELECT count(*) AS n FROM (SELECT * FROM ${x} EXCEPT SELECT * FROM ${y})`)
        .get()?.["n"] ?? 1,
    );
  const counts = [`main.${table}`, `fresh.${table}`].map((t) =>
    Number(database.prepare(`SELECT count(*) AS n FROM ${t}`).get()?.["n"] ?? -1),
  );
  const same =
    counts[0] === counts[1] &&
    differ(`main.${table}`, `fresh.${table}`) === 0 &&
    differ(`fresh.${table}`, `main.${table}`) === 0;
  database.close();
  return same;
}
