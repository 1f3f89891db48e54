/**
 * `npm start`: the CLI (main.ts) run as the JavaScript esbuild compiles it into, not through tsx.
 * tsx transforms every module of the CLI in the process that runs it (or finds it in its cache
 * under the system's temporary directory) and loads its own loader first, which cost a start more
 * than its build check and the server's start together; plain JavaScript here, because Node's own
 * TypeScript support loads its compiler in every process too.
 *
 * The CLI is compiled once, into .cache/cli/, and again only when one of the files it was compiled
 * from changed (their sizes and modification times, as the stamp of `dist/` in start.ts). The
 * bundle sits two directories below the project as main.ts does, so that `PROJECT_ROOT`
 * (io/read.ts) is the same; the scripts the CLI starts as threads and processes
 * (`new URL("./name.ts", import.meta.url)`) are entry points of their own beside it. The bundle's
 * V8 code is kept in .cache/v8 (Node's compile cache) for the next start.
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { enableCompileCache } from "node:module";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = resolve(import.meta.dirname, "../..");
const OUT = join(ROOT, ".cache/cli");
const STAMP = "inputs.json";
/** The CLI and the scripts it starts as threads (search, writes) and a process (the asset setup). */
export const ENTRY_POINTS = [
  "generator/cli/main.ts",
  "generator/build/search-worker.ts",
  "generator/io/write-worker.ts",
  "generator/sources/street-worker.ts",
  "generator/serve/asset-config.ts",
];
/** Besides the sources: what decides how they compile. */
const SETTINGS = [relative(ROOT, import.meta.filename), "tsconfig.json", "package-lock.json"];

/** Each file's size and modification time, as [path, size, mtime]. */
function stampOf(paths) {
  return paths.map((path) => {
    const stat = statSync(join(ROOT, path));
    return [path, stat.size, stat.mtimeMs];
  });
}

/** Whether .cache/cli holds the CLI compiled from the files as they are now. */
function isCurrent() {
  try {
    const stamp = JSON.parse(readFileSync(join(OUT, STAMP), "utf8"));
    const now = stampOf(stamp.map(([path]) => path));
    return JSON.stringify(now) === JSON.stringify(stamp);
  } catch {
    return false;
  }
}

/** `new URL("./name.ts", import.meta.url)` becomes "./name.js", the compiled entry point. */
const siblingScripts = {
  name: "sibling-scripts",
  setup(build) {
    build.onLoad({ filter: /[\\/]generator[\\/].*\.ts$/ }, ({ path }) => ({
      loader: "ts",
      contents: readFileSync(path, "utf8").replace(
        /new URL\("\.\/([\w-]+)\.ts", import\.meta\.url\)/g,
        (_, name) => {
          if (!ENTRY_POINTS.some((entry) => entry.endsWith(`/${name}.ts`)))
            throw new Error(
              `${path} starts ${name}.ts, which is no entry point of the compiled CLI (${relative(ROOT, import.meta.filename)})`,
            );
          return `new URL("./${name}.js", import.meta.url)`;
        },
      ),
    }));
  },
};

/** Compiles the CLI into a new directory and puts it in place of .cache/cli. */
async function compile() {
  const { build } = await import("esbuild");
  const next = `${OUT}.${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRY_POINTS,
    outdir: next,
    entryNames: "[name]",
    chunkNames: "[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    packages: "external",
    metafile: true,
    logLevel: "silent",
    plugins: [siblingScripts],
  });
  writeFileSync(
    join(next, STAMP),
    JSON.stringify(stampOf([...Object.keys(metafile.inputs), ...SETTINGS])),
  );
  rmSync(OUT, { recursive: true, force: true });
  try {
    renameSync(next, OUT);
  } catch {
    // Another start compiled it meanwhile, from the same files.
    rmSync(next, { recursive: true, force: true });
  }
}

if (!isCurrent())
  await compile().catch((error) => {
    rmSync(`${OUT}.${process.pid}`, { recursive: true, force: true });
    // esbuild's errors (a syntax error in the generator) one line each, with file and line.
    const lines = (error.errors ?? [{ text: error.message }]).map(({ location, text }) =>
      location ? `${location.file}:${location.line}: ${text}` : text,
    );
    process.stderr.write(lines.map((line) => `error: cannot compile the CLI: ${line}\n`).join(""));
    process.exit(1);
  });
// V8's code for the bundle, kept from the last start: a start with dist/ current compiles less.
enableCompileCache(join(ROOT, ".cache/v8"));
await import(pathToFileURL(join(OUT, "main.js")).href);
