/**
 * `npm run diff:search`: street search's differential run, old code against new
 * (test/support/search-differential.ts classifies each answer). The old side is a git worktree of
 * `--base` (default fbe262e, the code before the street-search planner) made in /tmp with this
 * checkout's node_modules, or `--old-checkout DIR`; the new side this checkout, or
 * `--new-checkout DIR`. Each side answers over a build of the same sources made by its own
 * generator (the new code may change the index format); `--old-out/--new-out` (national) and
 * `--berlin-old-out/--berlin-new-out` reuse builds. Two data sets:
 *
 * - national (`--source`, the synthetic list): the query mix, the adversarial mix, the address
 *   form mix and the Localities pattern mix (bench/search-mixes.ts);
 * - berlin (data/de/streets-berlin.csv): the requests the property tests generate
 *   (test/support/search-requests.ts: `--runs` of search-index's generator, seed `--seed`, and the
 *   regular-expression property test's name patterns).
 *
 * Prints the verdicts per mix, every moved boundary (old refused as too broad, new 200: checked
 * against a plain scan of the source rows) with the size of each side, every regression and
 * failure; `--refusals` lists every request the new code still refuses as too broad, with the
 * streets its name matches alone and its place filters together. Exit 1 on any regression or
 * failure.
 *
 *   npm run diff:search -- [--base REV | --old-checkout DIR] [--new-checkout DIR] [--data national,berlin]
 *     [--mix NAME …] [--source FILE] [--old-out DIR] [--new-out DIR] [--berlin-old-out DIR]
 *     [--berlin-new-out DIR] [--runs N] [--seed N] [--limit N] [--refusals] [--json FILE] [--keep]
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import fc from "fast-check";
import { gitCheckout, jsonBuild } from "../../bench/build-invocation.ts";
import { ensureNationalStreets } from "../../bench/national-streets.ts";
import { mixTargets, MIX_NAMES } from "../../bench/search-mixes.ts";
import { readModelStreets } from "../support/model.ts";
import { vocabulary } from "../support/search-arbitraries.ts";
import { dataWords } from "../support/search-data.ts";
import {
  differential,
  isRefusal,
  oracleStreets,
  scanOracle,
  sideSizes,
  verdictCounts,
  type DiffRequest,
  type DiffResult,
  type OracleStreets,
  type Side,
  type WorkerAnswer,
} from "../support/search-differential.ts";
import {
  searchRequests,
  searchRequestTarget,
  streetPatternCases,
  streetPatternQuery,
} from "../support/search-requests.ts";
import { dataFile } from "../support/paths.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const BASELINE_COMMIT = "fbe262e";
const BERLIN = dataFile("de/streets-berlin.csv");
const BERLIN_MIXES = ["property", "patterns"] as const;

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: BASELINE_COMMIT },
    "old-checkout": { type: "string" },
    "new-checkout": { type: "string", default: ROOT },
    data: { type: "string", default: "national,berlin" },
    mix: { type: "string", multiple: true },
    source: { type: "string", default: "/tmp/national-streets.csv" },
    "old-out": { type: "string" },
    "new-out": { type: "string" },
    "berlin-old-out": { type: "string" },
    "berlin-new-out": { type: "string" },
    "max-files": { type: "string", default: "20000" },
    runs: { type: "string", default: "3000" },
    "pattern-runs": { type: "string", default: "300" },
    seed: { type: "string", default: "1" },
    limit: { type: "string" },
    refusals: { type: "boolean", default: false },
    json: { type: "string" },
    keep: { type: "boolean", default: false },
  },
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
});
const log = (line: string) => process.stderr.write(`${line}\n`);
const work = mkdtempSync(join(tmpdir(), "plz-diff-"));
const cleanups: (() => void)[] = [];
let exitCode = 0;

try {
  const oldCheckout =
    args["old-checkout"] === undefined ? baseline(args.base) : resolve(args["old-checkout"]);
  const newCheckout = resolve(args["new-checkout"]);
  const datasets = args.data.split(",").filter(Boolean);
  const results: DiffResult[] = [];
  const oracles = new Map<string, Promise<OracleStreets>>();
  for (const data of datasets) {
    if (data !== "national" && data !== "berlin")
      throw new Error(`--data ${data}: national or berlin`);
    const source = data === "national" ? resolve(args.source) : BERLIN;
    const wanted = mixesOf(data);
    if (wanted.length === 0) continue;
    if (data === "national") await ensureNationalStreets(source);
    const [old, now] = await sides(data, source, oldCheckout, newCheckout);
    let requests =
      data === "national" ? await nationalRequests(wanted, source) : await berlinRequests(wanted);
    if (args.limit !== undefined) {
      const taken = new Map<string, number>();
      requests = requests.filter((r) => {
        taken.set(r.mix, (taken.get(r.mix) ?? 0) + 1);
        return (taken.get(r.mix) ?? 0) <= Number(args.limit);
      });
    }
    const oracle = (): Promise<OracleStreets> => {
      const loading = oracles.get(source) ?? oracleStreets(source);
      oracles.set(source, loading);
      return loading;
    };
    log(
      `${data}: ${requests.length} requests (${wanted.join(", ")}), old ${old.checkout} over ${old.out}, new ${now.checkout} over ${now.out}`,
    );
    // The oracle is read only when a moved boundary needs it: reading a national list takes a while.
    const mine = await differential(old, now, requests, {
      log,
      oracle: async (request, answer) => scanOracle(await oracle())(request, answer),
    });
    results.push(...mine);
    await report(mine, oracle);
  }
  printCounts(results);
  if (args.json !== undefined) writeFileSync(args.json, JSON.stringify(results, null, 1));
  exitCode = results.some((r) => r.verdict === "failure" || r.verdict === "regression") ? 1 : 0;
} finally {
  for (const cleanup of cleanups.reverse()) cleanup();
  if (!args.keep) rmSync(work, { recursive: true, force: true });
  else log(`kept ${work}`);
}
process.exit(exitCode);

function mixesOf(data: "national" | "berlin"): string[] {
  const all: readonly string[] = data === "national" ? MIX_NAMES : BERLIN_MIXES;
  return args.mix === undefined ? [...all] : args.mix.filter((m) => all.includes(m));
}

function baseline(commit: string): string {
  const dir = join(work, "baseline");
  log(`checking out ${commit} into ${dir}…`);
  const remove = gitCheckout(commit, dir);
  if (!args.keep) cleanups.push(remove);
  return dir;
}

/** Each side's build of `source` (made by its own generator), or the one given; one build when both sides are one checkout. */
async function sides(
  data: "national" | "berlin",
  source: string,
  oldCheckout: string,
  newCheckout: string,
): Promise<[Side, Side]> {
  const given = (name: string) => {
    const dir = args[(data === "national" ? name : `berlin-${name}`) as "old-out"];
    return dir === undefined ? undefined : resolve(dir);
  };
  const build = async (checkout: string, name: string) => {
    const dir = join(work, `${name}-${data}`);
    await jsonBuild(source, dir, ["--max-files", args["max-files"], "--full"], checkout);
    return dir;
  };
  const oldOut = given("old-out") ?? (await build(oldCheckout, "old"));
  const newOut =
    given("new-out") ?? (newCheckout === oldCheckout ? oldOut : await build(newCheckout, "new"));
  for (const dir of [oldOut, newOut])
    if (!existsSync(join(dir, "_routes.json"))) throw new Error(`${dir} is not a build`);
  return [
    { checkout: oldCheckout, out: oldOut },
    { checkout: newCheckout, out: newOut },
  ];
}

async function nationalRequests(mixes: readonly string[], source: string): Promise<DiffRequest[]> {
  return (await mixTargets(mixes, source)).map((t) => ({
    mix: t.mix,
    class: t.class,
    path: t.path,
  }));
}

/** The property tests' generated requests over the embedded Berlin streets, by seed. */
async function berlinRequests(mixes: readonly string[]): Promise<DiffRequest[]> {
  const streets = await readModelStreets(BERLIN);
  const seed = Number(args.seed);
  const out: DiffRequest[] = [];
  if (mixes.includes("property"))
    for (const r of fc.sample(searchRequests(streets, vocabulary(streets, dataWords())), {
      seed,
      numRuns: Number(args.runs),
    }))
      out.push({ mix: "property", class: `property: ${r.kind}`, path: searchRequestTarget(r) });
  if (mixes.includes("patterns"))
    for (const c of streetPatternCases(
      [...new Set(streets.map((s) => s.name))],
      seed,
      Number(args["pattern-runs"]),
    ))
      out.push({
        mix: "patterns",
        class: c.code === undefined ? "patterns: name" : "patterns: name + postal code",
        path: `/de/Streets?${streetPatternQuery(c)}&pageSize=50`,
      });
  return out;
}

function shown(path: string): string {
  return decodeURIComponent(path.replace(/\+/g, " "));
}

function firstBytes(a: WorkerAnswer): string {
  return `${a.status} ${JSON.stringify((a.body ?? a.head ?? "").slice(0, 160))}`;
}

async function report(
  results: readonly DiffResult[],
  oracle: () => Promise<OracleStreets>,
): Promise<void> {
  const sized = async (path: string) => {
    const sizes = sideSizes(await oracle(), path);
    return sizes === undefined
      ? ""
      : ` (name side ${sizes.name ?? "–"} streets, place side ${sizes.place ?? "–"})`;
  };
  const moved = results.filter((r) => r.verdict === "moved" || r.why?.startsWith("moved"));
  if (moved.length > 0) {
    process.stdout.write(
      `\nmoved boundaries (old refused as too broad → new 200), ${moved.length}:\n`,
    );
    for (const r of moved)
      process.stdout.write(
        `  ${r.request.mix}  ${shown(r.request.path)}  total ${r.new.headers.find(([n]) => n === "x-total-count")?.[1] ?? "?"}${await sized(r.request.path)}: ${r.why ?? "not checked"}\n`,
      );
  }
  for (const [verdict, title] of [
    ["regression", "regressions (old 200 → new 400)"],
    ["failure", "failures"],
  ] as const) {
    const listed = results.filter((r) => r.verdict === verdict && !r.why?.startsWith("moved"));
    if (listed.length === 0) continue;
    process.stdout.write(`\n${title}, ${listed.length}:\n`);
    for (const r of listed)
      process.stdout.write(
        `  ${r.request.mix}  ${shown(r.request.path)}: ${r.why}\n    old: ${firstBytes(r.old)}\n    new: ${firstBytes(r.new)}\n`,
      );
  }
  if (args.refusals) {
    const refused = results.filter((r) => isRefusal(r.new));
    process.stdout.write(`\nrefused as too broad by the new code, ${refused.length}:\n`);
    for (const r of refused)
      process.stdout.write(
        `  ${r.request.mix}  ${shown(r.request.path)}${await sized(r.request.path)}\n`,
      );
  }
}

function printCounts(results: readonly DiffResult[]): void {
  const head = [
    "mix",
    "requests",
    "identical",
    "moved",
    "regressions",
    "failures",
    "refused (new)",
  ];
  const rows = [...verdictCounts(results)].map(([mix, c]) => [
    mix,
    String(c.identical + c.moved + c.regression + c.failure),
    String(c.identical),
    String(c.moved),
    String(c.regression),
    String(c.failure),
    String(c.refused),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  process.stdout.write("\n");
  for (const line of [head, ...rows])
    process.stdout.write(
      `${line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")}\n`,
    );
}
