import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths.ts";

/**
 * The house's rules, read off the code's own imports: data flows one way (sources → model → build
 * → io), the Worker depends on the contract alone, the contract on nothing of the project, and no
 * folder imports a folder above it. Files stay small enough to read in one sitting.
 */

/** The folders of generator/ from the ground up: a folder may import its own and lower floors only. */
const FLOORS: readonly (readonly string[])[] = [
  ["contract"],
  ["io", "resources"],
  ["sources"],
  ["model", "docs"],
  ["build", "serve", "sync"],
  ["cli"],
];
/** The Worker: beside the house, on the contract alone. */
const EDGE = "edge";
/** Folders that may import the Worker: the local server runs its handler in-process. */
const RUNS_EDGE = ["serve"];
/** Node modules one folder alone may import: the sync client's database. */
const OWNED_MODULES: Readonly<Record<string, string>> = { "node:sqlite": "sync" };
/** npm packages the contract (and so the Worker) may use: pure ESM, no Node, no side effects. */
const PURE_PACKAGES = ["@orama/stemmers/german"];
const MAX_LINES = 300;

interface Import {
  readonly from: string;
  readonly to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory()
      ? sourceFiles(path)
      : /\.(ts|js)$/.test(entry)
        ? [path]
        : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/gm)].map(
    (m) => m[1] ?? "",
  );
}

const generator = join(ROOT, "generator");
const files = sourceFiles(generator);
const folderOf = (file: string) => relative(generator, file).split("/")[0] ?? "";
const imports: Import[] = files.flatMap((file) =>
  importsOf(file).map((specifier) => ({
    from: relative(ROOT, file),
    to: specifier.startsWith(".") ? relative(ROOT, resolve(dirname(file), specifier)) : specifier,
  })),
);

describe("the house", () => {
  it("has every folder of generator/ on a floor or as the Worker", () => {
    const folders = new Set(files.filter((f) => dirname(f) !== generator).map(folderOf));
    expect([...folders].sort()).toEqual([...FLOORS.flat(), EDGE].sort());
  });

  it("the contract imports nothing of the project and nothing of Node (pure packages aside)", () => {
    const wrong = imports.filter(
      (i) =>
        i.from.startsWith("generator/contract/") &&
        !i.to.startsWith("generator/contract/") &&
        !PURE_PACKAGES.includes(i.to),
    );
    expect(wrong).toEqual([]);
  });

  it("the Worker imports the contract and itself only, and nothing of Node", () => {
    const wrong = imports.filter(
      (i) =>
        i.from.startsWith(`generator/${EDGE}/`) &&
        !(i.to.startsWith("generator/contract/") || i.to.startsWith(`generator/${EDGE}/`)),
    );
    expect(wrong).toEqual([]);
  });

  it("no folder imports a folder on a higher floor (so no folder-level circles)", () => {
    const floor = (folder: string) => FLOORS.findIndex((names) => names.includes(folder));
    const wrong = imports
      .filter((i) => i.from.startsWith("generator/") && i.to.startsWith("generator/"))
      .map((i) => ({
        ...i,
        fromFolder: i.from.split("/")[1] ?? "",
        toFolder: i.to.split("/")[1] ?? "",
      }))
      .filter(
        ({ fromFolder, toFolder }) =>
          fromFolder !== toFolder &&
          fromFolder !== EDGE &&
          ((toFolder === EDGE && !RUNS_EDGE.includes(fromFolder)) ||
            floor(toFolder) > floor(fromFolder) ||
            (floor(toFolder) === floor(fromFolder) && toFolder !== fromFolder)),
      )
      .map(({ from, to }) => `${from} → ${to}`);
    expect(wrong).toEqual([]);
  });

  it("keeps node:sqlite in sync/ (the copy's database: the build and the server write no database)", () => {
    const wrong = imports
      .filter((i) => {
        const owner = OWNED_MODULES[i.to];
        return owner !== undefined && !i.from.startsWith(`generator/${owner}/`);
      })
      .map(({ from, to }) => `${from} → ${to}`);
    expect(wrong).toEqual([]);
  });

  it("benchmarks import the generator, not the tests; the generator imports neither", () => {
    const benchImports = sourceFiles(join(ROOT, "bench")).flatMap((file) =>
      importsOf(file).map((specifier) => relative(ROOT, resolve(dirname(file), specifier))),
    );
    expect(benchImports.filter((to) => to.startsWith("test/"))).toEqual([]);
    expect(imports.filter((i) => i.to.startsWith("test/") || i.to.startsWith("bench/"))).toEqual(
      [],
    );
  });

  it("has no import circle between files of generator/ (a module is read before whatever reads it)", () => {
    const edges = new Map<string, string[]>();
    for (const { from, to } of imports)
      if (to.startsWith("generator/")) edges.set(from, [...(edges.get(from) ?? []), to]);
    const circles: string[] = [];
    // Depth first: a file met again while it is on the path closes a circle.
    const state = new Map<string, "open" | "done">();
    const path: string[] = [];
    const visit = (file: string): void => {
      state.set(file, "open");
      path.push(file);
      for (const next of edges.get(file) ?? []) {
        if (state.get(next) === "open")
          circles.push([...path.slice(path.indexOf(next)), next].join(" → "));
        else if (state.get(next) === undefined) visit(next);
      }
      path.pop();
      state.set(file, "done");
    };
    for (const file of edges.keys()) if (state.get(file) === undefined) visit(file);
    expect(circles).toEqual([]);
  });

  it(`keeps every file of generator/ within ${MAX_LINES} lines`, () => {
    const long = files
      .map((file) => [relative(ROOT, file), readFileSync(file, "utf8").split("\n").length] as const)
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
