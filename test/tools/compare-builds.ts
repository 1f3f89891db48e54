/**
 * `npm run compare-builds -- [--base REV]`: builds the same inputs with this tree and with the
 * commit `REV` (checked out into a temporary worktree) and compares the two output trees file by
 * file. Differences the comparison expects are listed and allowed: the build time (in the
 * downloads manifest, the change feed and on the docs page), the fingerprint in `/_build.json` (it hashes the
 * generator's code) and what `--allow-added` names; anything else is a failure (exit 1).
 *
 *   npm run compare-builds -- --base main~1 [--allow-added /_routes.json] [--keep] [--national FILE] [--only NAME …]
 *
 * `--national FILE` adds the national street list (bench/national-streets.ts) at 20,000 and
 * 100,000 files; `--only` compares only the builds named (embedded, fixture-generous,
 * fixture-default, fixture-tight, national-20000, national-100000).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildInvocation } from "../../bench/build-invocation.ts";
import { CHANGE_FEED } from "../../generator/contract/layout.ts";
import { fixtureStreets } from "../support/fixture.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "HEAD" },
    "allow-added": { type: "string", multiple: true, default: [] },
    keep: { type: "boolean", default: false },
    national: { type: "string" },
    only: { type: "string", multiple: true },
  },
});

interface Report {
  same: number;
  allowed: string[];
  failures: string[];
}

/**
 * Files whose bytes carry the build time, a hash of the code or the fixture's path (relative to
 * each tree, so different): compared with those parts masked.
 */
const fixturePath = (text: string) =>
  text.replace(/"location": ?"[^"]*streets\.csv"/g, '"location":"…streets.csv"');
/**
 * The change feed (docs/CHANGES.md) states the build time, so its file and the manifest's entry for
 * it (the file's SHA-256) differ between two builds of the same inputs: every `builtAt` and that
 * one digest are masked.
 */
const feedTimes = (text: string) =>
  JSON.stringify(
    JSON.parse(text, function (this: Record<string, unknown>, key, value: unknown) {
      if (key === "builtAt") return "…";
      if (key === "sha256" && this["path"] === CHANGE_FEED) return "…";
      return value;
    }),
  );
const MASKED: Readonly<Record<string, (text: string) => string>> = {
  "downloads/index.json": (text) => fixturePath(feedTimes(text)),
  "downloads/changes/index.json": feedTimes,
  "index.html": (text) => text.replace(/Built \d{4}-\d\d-\d\dT[\d:.]+Z/, "Built …"),
  "_build.json": (text) =>
    fixturePath(text.replace(/"fingerprint": "[^"]*"/, '"fingerprint": "…"')),
};

/**
 * Files that carry the layout's format version (docs/FORMAT.md § 1): the same but for the field,
 * against a base from before it was written.
 */
const VERSIONED = /^(_routes\.json|_s\/[a-z]{2}\/meta\.json)$/;
const withoutFormatVersion = (text: string) => text.replace(/^\{"formatVersion":\d+,/, "{");

function compareTrees(ours: string, theirs: string, allowAdded: ReadonlySet<string>): Report {
  const a = listFiles(ours);
  const b = listFiles(theirs);
  const report: Report = { same: 0, allowed: [], failures: [] };
  for (const path of new Set([...a, ...b])) {
    if (path === "_files.tsv") continue; // the hashes of the files above; every file is compared itself
    if (!b.has(path)) {
      if (allowAdded.has(`/${path}`)) report.allowed.push(`added /${path}`);
      else report.failures.push(`only in this tree: /${path}`);
      continue;
    }
    if (!a.has(path)) {
      report.failures.push(`only in the base: /${path}`);
      continue;
    }
    const [x, y] = [readFileSync(join(ours, path)), readFileSync(join(theirs, path))];
    if (x.equals(y)) {
      report.same++;
      continue;
    }
    const mask = MASKED[path];
    if (mask !== undefined && mask(x.toString("utf8")) === mask(y.toString("utf8")))
      report.allowed.push(`/${path} (build time, code hash or fixture path)`);
    else if (
      VERSIONED.test(path) &&
      withoutFormatVersion(x.toString("utf8")) === y.toString("utf8")
    )
      report.allowed.push(`/${path} (the format version added)`);
    else report.failures.push(`differs: /${path}`);
  }
  return report;
}

function listFiles(root: string): Set<string> {
  const files = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else files.add(relative(root, path));
    }
  };
  visit(root);
  return files;
}

const work = mkdtempSync(join(tmpdir(), "plz-compare-"));
const baseTree = join(work, "base");
execFileSync("git", ["-C", ROOT, "worktree", "add", "--detach", baseTree, args.base], {
  stdio: "ignore",
});
symlinkSync(join(ROOT, "node_modules"), join(baseTree, "node_modules"));
const streets = fixtureStreets(work);

/** The builds compared: the embedded data at the default budget, and the street fixture at three budgets. */
const builds: { name: string; args: string[] }[] = [
  { name: "embedded", args: [] },
  {
    name: "fixture-generous",
    args: ["--source", `de-streets=${streets}`, "--max-files", "1000000"],
  },
  { name: "fixture-default", args: ["--source", `de-streets=${streets}`] },
  { name: "fixture-tight", args: ["--source", `de-streets=${streets}`, "--max-files", "6000"] },
  ...(args.national === undefined
    ? []
    : [20_000, 100_000].map((maxFiles) => ({
        name: `national-${maxFiles}`,
        args: [
          "--source",
          `de-streets=${resolve(args.national ?? "")}`,
          "--max-files",
          `${maxFiles}`,
        ],
      }))),
].filter((build) => args.only === undefined || args.only.includes(build.name));

let failures = 0;
try {
  for (const build of builds) {
    const trees = [ROOT, baseTree].map((tree, i) => {
      const out = join(work, `${build.name}-${i === 0 ? "new" : "base"}`);
      process.stderr.write(`building ${build.name} with ${i === 0 ? "this tree" : args.base}…\n`);
      const invocation = buildInvocation(["--full", "--out", out, ...build.args], tree);
      execFileSync(invocation.command, invocation.args, {
        cwd: tree,
        env: invocation.env,
        stdio: ["ignore", "ignore", "inherit"],
      });
      return out;
    });
    const [ours = "", theirs = ""] = trees;
    const report = compareTrees(ours, theirs, new Set(args["allow-added"]));
    process.stdout.write(
      `${build.name}: ${report.same} files identical; ${report.allowed.length} allowed differences${report.allowed.length === 0 ? "" : ` (${report.allowed.join(", ")})`}; ${report.failures.length} unexpected\n`,
    );
    for (const failure of report.failures.slice(0, 20)) process.stdout.write(`  ${failure}\n`);
    failures += report.failures.length;
    for (const tree of trees) rmSync(tree, { recursive: true, force: true });
  }
} finally {
  execFileSync("git", ["-C", ROOT, "worktree", "remove", "--force", baseTree], { stdio: "ignore" });
  if (!args.keep) rmSync(work, { recursive: true, force: true });
}
process.exit(failures === 0 ? 0 : 1);
