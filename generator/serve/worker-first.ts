/**
 * `run_worker_first` as Cloudflare's router applies it (workers-shared): a rule matches the whole
 * path, `*` spans any characters including `/`; a `!` rule sends a path to the assets and wins
 * over the others; `true` sends every path to the Worker. Paths the router treats specially
 * (`/cdn-cgi/`, image checks) are never "Worker first" here, so the local server leaves them to
 * the router. Bundled into the local server's entry module: no imports.
 */
export type RunWorkerFirst = boolean | readonly string[] | undefined;

/** The router's glob rule as a regular expression. */
function globSource(rule: string): string {
  return `^${rule
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*")}$`;
}

/** Whether a path goes to the Worker before any asset is looked up. */
export function workerFirstMatcher(rules: RunWorkerFirst): (path: string) => boolean {
  const list = Array.isArray(rules) ? (rules as readonly string[]) : [];
  const toAssets = list.filter((rule) => rule.startsWith("!")).map((rule) => new RegExp(globSource(rule.slice(1))));
  const toWorker = list.filter((rule) => !rule.startsWith("!")).map((rule) => new RegExp(globSource(rule)));
  const special = (path: string) => path.startsWith("/cdn-cgi/") || path === "/_image" || path.endsWith("/_next/image");
  return (path) => !special(path) && !toAssets.some((rule) => rule.test(path)) && (rules === true || toWorker.some((rule) => rule.test(path)));
}
