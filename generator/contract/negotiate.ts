import type { Format } from "./query.ts";

/**
 * Picks CSV or JSON from an `Accept` header, as the original's output formatters do: CSV only
 * when `text/csv` is asked for and nothing JSON is preferred over it; JSON otherwise (also for
 * `*\/*`, a missing header, or types we do not produce).
 */
export function formatFromAccept(accept: string | null): Format {
  if (accept === null || !accept.toLowerCase().includes("csv")) return "json";
  let csv = -1;
  let json = -1;
  for (const part of accept.toLowerCase().split(",")) {
    const [type = "", ...params] = part.split(";").map((s) => s.trim());
    const qParam = params.find((p) => p.startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q)) continue;
    if (type === "text/csv") csv = Math.max(csv, q);
    else if (type === "application/json" || type.endsWith("+json")) json = Math.max(json, q);
  }
  return csv > 0 && csv >= json ? "csv" : "json";
}
