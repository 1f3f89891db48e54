import { spawn } from "node:child_process";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/fixture.ts";
import { EMBEDDED_BUDGET, sharedDataBuild } from "../support/memory-build.ts";
import { CLI_COMMAND, cliArgs, ROOT } from "../support/paths.ts";

/**
 * `npm run verify -- --dir DIR`, the nightly's last step before deploying: it passes on a good
 * build of the embedded data and names every file a damaged build serves wrong.
 */
const work = tempDir("verify");

function verify(dir: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(CLI_COMMAND, cliArgs("verify", "--dir", dir), {
      cwd: ROOT,
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** Replaces a file by a new one (its hard-linked twins in the build keep their bytes). */
function rewrite(dir: string, path: string, change: (text: string) => string): void {
  const file = join(dir, path);
  const text = readFileSync(file, "utf8");
  rmSync(file);
  writeFileSync(file, change(text));
}

let good: string;
beforeAll(async () => {
  // The run's shared build of the embedded data (read-only: the damaged build is a copy).
  ({ dir: good } = await sharedDataBuild(EMBEDDED_BUDGET));
});

describe("npm run verify", () => {
  it("passes a good build: every endpoint, the docs, a 400, a 404 and every download", async () => {
    const result = await verify(good);
    expect(result.stdout, result.stderr).toMatch(/^verify: \d+ checks, 0 failed$/m);
    expect(Number(/verify: (\d+) checks/.exec(result.stdout)?.[1])).toBeGreaterThan(150);
    expect(result.stderr).toMatch(/^verify: \/de\/Districts\/\{key\}\/Municipalities: 2 views$/m);
    expect(result.stderr).toMatch(/^verify: change feed: 0 builds, 0 files$/m); // a first build: an empty feed
    expect(result.status).toBe(0);
  });

  it("fails a build that serves a list or a download wrong, naming each request", async () => {
    const damaged = join(work, "damaged");
    cpSync(good, damaged, { recursive: true });
    rewrite(damaged, "_l/ch.cantons.csv", (text) => text.replace("Zürich", "Zurich"));
    rewrite(damaged, "downloads/li.communes.json", (text) => text.replace("Vaduz", "Vaduz "));
    rmSync(join(damaged, "downloads/at.federalprovinces.csv"));
    rewrite(damaged, "downloads/changes/index.json", (text) =>
      text.replace('"builds":[]', '"builds": []'),
    );
    const result = await verify(damaged);
    expect(result.status).toBe(1);
    const failures = result.stdout.split("\n").filter((line) => line.startsWith("FAIL "));
    expect(failures).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^FAIL GET \/ch\/Cantons\?format=csv: the body differs from the downloads' records/,
        ),
        expect.stringMatching(
          /^FAIL GET \/downloads\/li\.communes\.json: \d+ bytes, the manifest says \d+; SHA-256 [0-9a-f]{64}, the manifest says [0-9a-f]{64}$/,
        ),
        expect.stringMatching(/^FAIL GET \/li\/Communes: the body differs/),
        expect.stringMatching(
          /^FAIL GET \/downloads\/at\.federalprovinces\.csv: status 404, expected 200$/,
        ),
        expect.stringMatching(
          /^FAIL GET \/downloads\/changes\/index\.json: \d+ bytes, the manifest says \d+; SHA-256 [0-9a-f]{64}, the manifest says [0-9a-f]{64}$/,
        ),
      ]),
    );
    expect(result.stdout).toMatch(
      new RegExp(`^verify: \\d+ checks, ${failures.length} failed$`, "m"),
    );
  });
});
