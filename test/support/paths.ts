import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");
export const dataFile = (path: string) => resolve(ROOT, "data", path);

/**
 * How long a test lets a process it runs synchronously (a build, the CLI) take before it kills it:
 * a bound on a hang, not on the work (vitest cannot interrupt a synchronous wait).
 */
export const SPAWN_BOUND_MS = 600_000;

/**
 * The CLI as the tests spawn it: `node --import tsx generator/cli/main.ts …` (as `npm start` and
 * `npm run serve` run it), one process where the `tsx` command starts two and pays Node's start
 * twice. The same program either way: the tests are about its answers, not tsx's.
 */
export const CLI_COMMAND = process.execPath;
export const cliArgs = (...args: string[]): string[] => [
  "--import",
  "tsx",
  "generator/cli/main.ts",
  ...args,
];
