import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Builds shared by the whole test run: test files run in several processes at once, and many ask
 * for the same build (the embedded data at one budget, the street fixture with the same options).
 * The first to ask builds it into the run's temporary root (global-setup.ts), keyed by everything
 * the build is made of; the others wait for it and read it. A shared build is read-only: a test
 * that changes files copies the directory first.
 */

/**
 * The build `key` names, built once per run: `build(out, inputs)` builds into `out` (which does not
 * exist yet) from inputs it may write into `inputs` (a fresh directory kept for the run: sources
 * written there are read by tests too); its result is kept as JSON (maps and sets survive).
 */
export async function sharedBuild<T>(
  key: unknown,
  build: (out: string, inputs: string) => Promise<T>,
): Promise<{ dir: string; inputs: string; value: T }> {
  const root = join(process.env["PLZ_TEST_TMP"] ?? tmpdir(), "shared-builds");
  mkdirSync(root, { recursive: true });
  const name = createHash("sha256").update(JSON.stringify(key)).digest("hex").slice(0, 20);
  const dir = join(root, name);
  const inputs = join(root, `${name}-inputs`);
  const value = join(root, `${name}.json`);
  const lock = join(root, `${name}.lock`);
  for (;;) {
    if (existsSync(value)) return { dir, inputs, value: parse<T>(readFileSync(value, "utf8")) };
    try {
      mkdirSync(lock); // atomic: one process builds, the others wait for its result
    } catch {
      await sleep(250);
      continue;
    }
    try {
      rmSync(dir, { recursive: true, force: true });
      rmSync(inputs, { recursive: true, force: true });
      mkdirSync(inputs);
      const result = await build(dir, inputs);
      writeFileSync(`${value}.tmp`, stringify(result));
      renameSync(`${value}.tmp`, value);
      return { dir, inputs, value: result };
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

function stringify(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v instanceof Map ? { __map: [...v] } : v instanceof Set ? { __set: [...v] } : v,
  );
}

function parse<T>(text: string): T {
  return JSON.parse(text, (_, v: unknown) => {
    if (typeof v === "object" && v !== null) {
      if ("__map" in v) return new Map((v as { __map: [unknown, unknown][] }).__map);
      if ("__set" in v) return new Set((v as { __set: unknown[] }).__set);
    }
    return v;
  }) as T;
}
