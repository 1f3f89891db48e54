/**
 * `run_worker_first` as Cloudflare's router applies it (workers-shared): a rule matches the whole
 * path, `*` spans any characters including `/`; a `!` rule sends a path to the assets and wins
 * over the others; `true` sends every path to the Worker. Paths the router treats specially
 * (`/cdn-cgi/`, image checks) are never "Worker first" here: the local server looks for a file
 * first, then asks the Worker.
 */
export type RunWorkerFirst = boolean | readonly string[] | undefined;

/** The router's glob rule as a regular expression. */
function globSource(rule: string): string {
  return `^${rule
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*")}$`;
}

/** The rules as the router's configuration splits them: paths for the Worker, and paths for the assets (without their `!`). */
function split(rules: RunWorkerFirst): {
  readonly toWorker: readonly string[];
  readonly toAssets: readonly string[];
} {
  const list = Array.isArray(rules) ? (rules as readonly string[]) : [];
  return {
    toWorker: list.filter((rule) => rule.startsWith("/")),
    toAssets: list.filter((rule) => rule.startsWith("!/")).map((rule) => rule.slice(1)),
  };
}

/** Whether a path goes to the Worker before any asset is looked up. */
export function workerFirstMatcher(rules: RunWorkerFirst): (path: string) => boolean {
  const { toWorker, toAssets } = split(rules);
  const worker = toWorker.map((rule) => new RegExp(globSource(rule)));
  const assets = toAssets.map((rule) => new RegExp(globSource(rule)));
  const special = (path: string) =>
    path.startsWith("/cdn-cgi/") || path === "/_image" || path.endsWith("/_next/image");
  return (path) =>
    !special(path) &&
    !assets.some((rule) => rule.test(path)) &&
    (rules === true || worker.some((rule) => rule.test(path)));
}
