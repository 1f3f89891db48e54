import { spawn, spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildToDirectory } from "../../generator/build/build.ts";
import { FORMAT_VERSION, ROUTE_TABLE_PATH } from "../../generator/contract/layout.ts";
import { freePort, groupRssKiB } from "../../generator/serve/child.ts";
import { tempDir } from "../support/fixture.ts";
import { rawRequest, startServer, type RunningServer } from "../support/http.ts";
import { CLI_COMMAND, cliArgs, ROOT, SPAWN_BOUND_MS } from "../support/paths.ts";

/**
 * The server as a user runs it (`npm run serve`): one clear line for what they can fix, and no
 * process left behind however it is stopped.
 */
const work = tempDir("serve");
const dir = join(work, "dist");
let server: RunningServer;

beforeAll(async () => {
  await buildToDirectory(
    {
      root: ROOT,
      sources: {},
      maxFiles: 20_000,
      headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
      only: ["de.federalstates", "ch.cantons"],
    },
    dir,
  );
  server = await startServer(dir);
});
afterAll(async () => server?.stop());

const errorLines = (stderr: string) =>
  stderr.split("\n").filter((line) => line.trim() !== "" && !line.includes("nodedir"));
const serveCli = (args: string[]) =>
  spawnSync(CLI_COMMAND, cliArgs("serve", ...args), {
    cwd: ROOT,
    encoding: "utf8",
    timeout: SPAWN_BOUND_MS,
  });

/** Waits until no process of the group is alive (zombies have no resident memory); the milliseconds it took, or -1. */
async function goneWithin(groupId: number, ms: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (groupRssKiB(groupId) === 0) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return -1;
}

/** `npm run serve` in its own process group, resolved once it answers; its pid is npm's. */
async function npmServe(port: number, workers: number): Promise<number> {
  const child = spawn(
    "npm",
    [
      ...["run", "--silent", "serve", "--", "--dir", dir, "--port", String(port)],
      ...["--workers", String(workers)],
    ],
    { cwd: ROOT, stdio: "ignore", detached: true },
  );
  // Bounded as a synchronous CLI run is (SPAWN_BOUND_MS), not at a time a busy machine can exceed.
  for (const started = Date.now(); Date.now() - started < SPAWN_BOUND_MS;) {
    try {
      if ((await rawRequest(`http://127.0.0.1:${port}`, "/_health")).status === 200)
        return child.pid ?? -1;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.kill(-(child.pid ?? 0), "SIGKILL");
  throw new Error(`npm run serve did not answer within ${SPAWN_BOUND_MS / 1000} s`);
}

describe("npm run serve", () => {
  it("says in one line that a directory is not a build, and exits 1", () => {
    const result = serveCli(["--dir", work]);
    expect(result.status).toBe(1);
    expect(errorLines(result.stderr)).toEqual([
      `error: ${work} is not a build (no _headers); run npm run build first`,
    ]);
  });

  it.each([0, FORMAT_VERSION + 1])(
    "says in one line that a build is of format %i, not its own, and exits 1",
    (version) => {
      const other = join(work, `format-${version}`);
      cpSync(dir, other, { recursive: true });
      const table = JSON.parse(readFileSync(join(other, ROUTE_TABLE_PATH), "utf8")) as Record<
        string,
        unknown
      >;
      if (version === 0)
        delete table["formatVersion"]; // as every build before the version was written
      else table["formatVersion"] = version;
      writeFileSync(join(other, ROUTE_TABLE_PATH), JSON.stringify(table));
      const result = serveCli(["--dir", other]);
      expect(result.status).toBe(1);
      expect(errorLines(result.stderr)).toEqual([
        `error: ${other} is a build of format ${version}, this code reads format ${FORMAT_VERSION}; rebuild it with npm run build`,
      ]);
    },
  );

  it("says in one line that the port is in use, and exits 1", () => {
    const port = new URL(server.origin).port;
    const result = serveCli(["--dir", dir, "--port", port]);
    expect(result.status).toBe(1);
    expect(errorLines(result.stderr)).toEqual([
      `error: port ${port} on 127.0.0.1 is in use; choose another with --port (or PORT=…)`,
    ]);
    expect(result.stdout).toBe("");
  });

  it("reports the build's time stamp and sources at /_health", async () => {
    const health = await rawRequest(server.origin, "/_health");
    const manifest = JSON.parse(readFileSync(join(dir, "downloads/index.json"), "utf8")) as {
      builtAt: string;
      sources: { name: string }[];
    };
    expect([
      health.status,
      health.headers["content-type"],
      health.headers["cache-control"],
    ]).toEqual([200, "application/json", "no-store"]);
    const body = JSON.parse(health.text) as {
      status: string;
      builtAt: string;
      sources: { name: string }[];
      assets: number;
    };
    expect(body).toMatchObject({ status: "ok", builtAt: manifest.builtAt });
    expect(body.sources.map((s) => s.name)).toEqual(manifest.sources.map((s) => s.name));
    expect(body.assets).toBe(
      readFileSync(join(dir, "_files.tsv"), "utf8").trimEnd().split("\n").length - 2,
    ); // without _headers and _redirects
  });

  it.each([
    ["SIGTERM", 1],
    ["SIGINT", 1],
    ["SIGTERM", 2],
  ] as const)(
    "leaves no process behind within 5 s after %s to npm alone (%i server processes)",
    async (signal, workers) => {
      const npm = await npmServe(await freePort(), workers);
      expect(groupRssKiB(npm)).toBeGreaterThan(0);
      process.kill(npm, signal); // a supervisor's stop: npm only, not its group
      const took = await goneWithin(npm, 5_000);
      if (took < 0) process.kill(-npm, "SIGKILL");
      expect(took, "ms until npm and every node process were gone").toBeGreaterThanOrEqual(0);
    },
  );
});
