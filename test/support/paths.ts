import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");
export const dataFile = (path: string) => resolve(ROOT, "data", path);

/**
 * How long a test lets a process it runs synchronously (a build, the CLI) take before it kills it:
 * a bound on a hang, not on the work (vitest cannot interrupt a synchronous wait).
 */
export const SPAWN_BOUND_MS = 600_000;
