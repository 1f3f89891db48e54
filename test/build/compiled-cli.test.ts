import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, HEALTH_PATH, originOf, spawnServer } from "../../generator/serve/child.ts";
import { startLocalServer } from "../../generator/serve/local.ts";
import { buildFixture, STREET_FIXTURE } from "../support/fixture.ts";
import { rawRequest, startAll, type RunningServer } from "../support/http.ts";
import { ROOT, SPAWN_BOUND_MS } from "../support/paths.ts";

/**
 * `npm start` runs the CLI as esbuild compiles it (generator/cli/compiled.mjs into .cache/cli/), not
 * through tsx: the compiled CLI answers as the TypeScript one does, and every script the generator
 * starts as a thread or process beside its module (`new URL("./name.ts", import.meta.url)`) is
 * compiled beside the CLI, where the compiled code looks for it.
 */
const PATHS = [
  "/de/Streets?locality=Berlin&page=2&pageSize=10",
  "/de/Streets?name=Sch%C3%BCtzenstr.&locality=Berlin",
  "/de/FullTextSearch?searchTerm=berlin&pageSize=3",
  "/de/FederalStates?format=csv",
  "/ch/Cantons",
  "/de/Nope",
  "/",
];

describe("the compiled CLI (npm start)", () => {
  let compiled: RunningServer;
  let typescript: RunningServer;
  beforeAll(async () => {
    // The budget contract.test.ts and others serve: the run builds it once for all.
    const { dir } = await buildFixture(1_000_000, undefined, { only: STREET_FIXTURE });
    const port = await freePort();
    const origin = originOf("127.0.0.1", port);
    const args = ["generator/cli/compiled.mjs", "serve", "--dir", dir, "--port", String(port)];
    [compiled, typescript] = await startAll([
      // Bounds a hang only (the tests' bound for a spawned CLI).
      spawnServer("the compiled CLI", process.execPath, args, origin, HEALTH_PATH, {
        timeoutMs: SPAWN_BOUND_MS,
      }),
      // main.ts through tsx (the other suites' startServer runs the compiled CLI too).
      startLocalServer(dir, { compiled: false, startTimeoutMs: SPAWN_BOUND_MS }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([compiled?.stop(), typescript?.stop()]);
  });

  it.each(PATHS)("answers %s with the TypeScript CLI's status, headers and bytes", async (path) => {
    const [ours, theirs] = await Promise.all([
      rawRequest(compiled.origin, path),
      rawRequest(typescript.origin, path),
    ]);
    expect(ours.status).toBe(theirs.status);
    expect(ours.rawHeaders).toEqual(theirs.rawHeaders);
    expect(Buffer.compare(ours.body, theirs.body)).toBe(0);
  });

  const started = generatorFiles(join(ROOT, "generator")).flatMap((file) =>
    [
      ...readFileSync(file, "utf8").matchAll(/new URL\("\.\/([\w-]+)\.ts", import\.meta\.url\)/g),
    ].map((match) => [relative(ROOT, file), match[1] ?? ""] as const),
  );
  it("finds the scripts the generator starts", () => {
    expect(started.map(([, name]) => name).sort()).toEqual(
      expect.arrayContaining(["asset-config", "search-worker", "write-worker"]),
    );
  });
  it.each(started)("%s starts %s.ts, compiled beside the CLI", (_, name) => {
    expect(existsSync(join(ROOT, ".cache/cli", `${name}.js`))).toBe(true);
  });
});

function generatorFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? generatorFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}
