import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");
export const dataFile = (path: string) => resolve(ROOT, "data", path);

/**
 * How long a test lets a process it runs synchronously (a build, the CLI) take before it kills it:
 * a bound on a hang, not on the work (vitest cannot interrupt a synchronous wait).
 */
export const SPAWN_BOUND_MS = 600_000;

/**
 * The CLI as the tests spawn it: compiled, as `npm start` runs it (`node
 * generator/cli/compiled.mjs …`, compiled once per run by global-setup.ts into .cache/cli/). Through
 * tsx each process cost about 0.7 s of CPU more before it did anything (tsx's loader, each module
 * transformed or read from tsx's cache, in every worker thread again), about 1.2 s more whenever tsx's
 * cached main.ts had been left empty by a process that exited at once (`--version`); the suite
 * spawns the CLI about 35 times. The same program either way: the tests are about its answers,
 * not tsx's, and compiled-cli.test.ts checks the compiled CLI against the TypeScript one.
 */
export const CLI_COMMAND = process.execPath;
export const COMPILED_CLI = "generator/cli/compiled.mjs";
export const cliArgs = (...args: string[]): string[] => [COMPILED_CLI, ...args];
