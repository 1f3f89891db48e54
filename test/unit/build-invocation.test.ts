import { readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildInvocation, scriptInvocation } from "../../bench/build-invocation.ts";
import { ROOT } from "../support/paths.ts";

/**
 * The generator's process settings live in package.json's scripts: the heap limits and glibc's
 * malloc settings that keep a national build under 1 GB of peak RSS (see docs/OPERATIONS.md,
 * Scale). Every script that builds carries them, and the benches start the build with exactly
 * what the `build` script gives.
 */
describe("the build process settings", () => {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts;

  it.each(["start", "build", "plan", "dev"])(
    "the %s script sets malloc and the heap limits",
    (name) => {
      expect(scripts[name]).toMatch(/^MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 /);
      expect(scripts[name]).toContain(" --max-old-space-size=1024 --max-semi-space-size=16 ");
    },
  );

  it("the benches' build process has the build script's environment and flags", () => {
    const invocation = buildInvocation(["--json"]);
    expect([invocation.env["MALLOC_ARENA_MAX"], invocation.env["MALLOC_MMAP_THRESHOLD_"]]).toEqual([
      "2",
      "131072",
    ]);
    expect(invocation.command).toBe(join(ROOT, "node_modules/.bin/node"));
    // The project's Node 24 (the `node` devDependency), as under `npm run`, not the system's.
    expect(invocation.env["PATH"]?.split(delimiter)[0]).toBe(join(ROOT, "node_modules/.bin"));
    expect(invocation.args).toEqual([
      "--max-old-space-size=1024",
      "--max-semi-space-size=16",
      "generator/cli/compiled.mjs",
      "build",
      "--json",
    ]);
  });

  // An A/B's base checkout builds with its own script: earlier ones ran the CLI through tsx.
  it.each([
    {
      script: "A=1 exec node --max-semi-space-size=16 generator/cli/compiled.mjs build",
      command: "/r/node_modules/.bin/node",
      args: ["--max-semi-space-size=16", "generator/cli/compiled.mjs", "build", "--json"],
    },
    {
      script: "A=1 tsx --max-old-space-size=1024 generator/cli/main.ts build",
      command: "/r/node_modules/.bin/tsx",
      args: ["--max-old-space-size=1024", "generator/cli/main.ts", "build", "--json"],
    },
  ])("$script runs as $command", ({ script, command, args }) => {
    const invocation = scriptInvocation(script, "/r", ["--json"]);
    expect([invocation.command, invocation.args, invocation.env["A"]]).toEqual([
      command,
      args,
      "1",
    ]);
    expect(invocation.env["PATH"]?.split(delimiter)[0]).toBe("/r/node_modules/.bin");
  });

  it.each(["node generator/cli/main.ts start", "npx tsx generator/cli/main.ts build", ""])(
    "refuses the build script '%s'",
    (script) =>
      expect(() => scriptInvocation(script, "/r", [])).toThrow(/the build script should be/),
  );
});
