/**
 * The differential run of street search: the same requests through two versions of the Worker
 * (two checkouts, each over its own build of the same sources), every answer compared byte for
 * byte: status, every header (name and value), body. Each version answers in a process of its own
 * (test/tools/search-answers.ts), so their module state never meets and either may be any commit.
 *
 * Every request is classified:
 * - `identical`: same status, headers and body. An ETag may differ only in the part that hashes
 *   the build (a search ETag is the index's hash, 8 hex digits, then a hash of the question, the
 *   page size, page and format; a Localities ETag the same over the view's records): where the
 *   two builds' bytes differ (a new index format), that part is allowed to differ if it does so
 *   consistently: one old value always stands beside one new value, and the other way round.
 * - `moved`: the old code refused it as too broad (400) and the new one answers 200: a refusal
 *   boundary moved. The new answer's count and page are checked against a plain scan of the
 *   source rows (test/support/search-scan.ts) when an oracle is given: `moved` when they agree,
 *   a `failure` when not.
 * - `regression`: the new code answers 400 where the old answered 200.
 * - `failure`: anything else (both answers' first bytes kept for the report).
 *
 * test/tools/search-differential.ts is the command line (`npm run diff:search`); a test can call
 * `differential` with two small builds.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  filterMatches,
  parseStreetFilter,
  type FilterParameter,
} from "../../generator/contract/search/filter.ts";
import {
  lexemesOf,
  streetDocument,
  type DocumentLexemes,
} from "../../generator/contract/postgres/lexize.ts";
import { modelRegister, readModelStreets, type ModelStreet } from "./model.ts";
import { scanFullText, scannedPage, scanStreets } from "./search-scan.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** What test/tools/search-answers.ts is asked. */
export interface AnswerOrder {
  readonly checkout: string;
  readonly out: string;
  readonly targets: readonly string[];
  /** Every body whole (else the first characters of a 200's, the whole of any other). */
  readonly bodies: boolean;
  /** The file the answers are written to. */
  readonly answers: string;
}

export interface WorkerAnswer {
  readonly status: number;
  /** As Headers iterates them: names lower-cased, in order. */
  readonly headers: readonly (readonly [string, string])[];
  readonly length: number;
  readonly sha256: string;
  readonly head?: string;
  readonly body?: string;
}

/** One version of the code over one build. */
export interface Side {
  readonly checkout: string;
  readonly out: string;
}

export interface DiffRequest {
  readonly mix: string;
  readonly class: string;
  readonly path: string;
}

export type Verdict = "identical" | "moved" | "regression" | "failure";

export interface DiffResult {
  readonly request: DiffRequest;
  readonly verdict: Verdict;
  /** Why a failure is one, or what the oracle said of a moved boundary. */
  readonly why?: string;
  readonly old: WorkerAnswer;
  readonly new: WorkerAnswer;
}

/** The 400s that refuse a search as too broad (edge/search.ts, contract/search/regex-plan.ts). */
const REFUSAL = /matches too broadly to be answered|matches too many street names to be checked/;

export const isRefusal = (answer: WorkerAnswer): boolean =>
  answer.status === 400 && REFUSAL.test(answer.body ?? answer.head ?? "");

/** Asks every target of one side, in order, in one process; answers in target order. */
export function askAll(
  side: Side,
  targets: readonly string[],
  bodies = false,
): Promise<WorkerAnswer[]> {
  const work = mkdtempSync(join(tmpdir(), "plz-diff-answers-"));
  const order: AnswerOrder = {
    checkout: resolve(side.checkout),
    out: resolve(side.out),
    targets,
    bodies,
    answers: join(work, "answers.json"),
  };
  return new Promise<WorkerAnswer[]>((resolvePromise, reject) => {
    const child = spawn(
      join(ROOT, "node_modules/.bin/tsx"),
      [join(ROOT, "test/tools/search-answers.ts")],
      { cwd: ROOT, stdio: ["pipe", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on("error", reject);
    child.on("close", (code) => {
      try {
        if (code !== 0)
          throw new Error(`answers of ${side.checkout} over ${side.out} (exit ${code}): ${stderr}`);
        resolvePromise(JSON.parse(readFileSync(order.answers, "utf8")) as WorkerAnswer[]);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    });
    child.stdin.end(JSON.stringify(order));
  });
}

/** An ETag's build part (8 hex digits) and the rest, or undefined for another shape. */
const etagParts = (etag: string): [build: string, rest: string] | undefined => {
  const match = /^"([0-9a-f]{8})(.*)"$/.exec(etag);
  return match === null ? undefined : [match[1] ?? "", match[2] ?? ""];
};

/** How two answers differ, or undefined when they are the same (an ETag's build part aside: `pair`). */
function difference(
  old: WorkerAnswer,
  now: WorkerAnswer,
): { why?: string; pair?: [string, string] } {
  if (old.status !== now.status) return { why: `status ${old.status} → ${now.status}` };
  let pair: [string, string] | undefined;
  const names = new Set([...old.headers, ...now.headers].map(([name]) => name));
  const value = (answer: WorkerAnswer, name: string) =>
    answer.headers
      .filter(([n]) => n === name)
      .map(([, v]) => v)
      .join(", ");
  for (const name of names) {
    const [a, b] = [value(old, name), value(now, name)];
    if (a === b) continue;
    const [pa, pb] = [etagParts(a), etagParts(b)];
    if (name === "etag" && pa !== undefined && pb !== undefined && pa[1] === pb[1]) {
      pair = [pa[0], pb[0]];
      continue;
    }
    return { why: `header ${name}: ${a || "(none)"} → ${b || "(none)"}` };
  }
  if (old.sha256 !== now.sha256 || old.length !== now.length)
    return { why: `body differs (${old.length} → ${now.length} bytes)` };
  return pair === undefined ? {} : { pair };
}

/** Checks a moved boundary's new answer (its whole body); a reason when it is wrong. */
export type MovedCheck = (
  request: DiffRequest,
  answer: WorkerAnswer,
) => string | undefined | Promise<string | undefined>;

export interface DifferentialOptions {
  /** Checks the new answers of moved boundaries (see `scanOracle`); without it they are not checked. */
  readonly oracle?: MovedCheck;
  readonly log?: (line: string) => void;
}

/**
 * Every request through both sides (both at once, a process each), compared and classified; the
 * results in request order.
 */
export async function differential(
  old: Side,
  now: Side,
  requests: readonly DiffRequest[],
  options: DifferentialOptions = {},
): Promise<DiffResult[]> {
  const log = options.log ?? (() => undefined);
  const targets = requests.map((r) => r.path);
  log(`asking ${targets.length} requests of both sides…`);
  const [olds, nows] = await Promise.all([askAll(old, targets), askAll(now, targets)]);
  const pairs = new Map<string, string>();
  const reverse = new Map<string, string>();
  const results: DiffResult[] = requests.map((request, i) => {
    const [a, b] = [olds[i] as WorkerAnswer, nows[i] as WorkerAnswer];
    const { why, pair } = difference(a, b);
    if (why === undefined) {
      if (pair !== undefined) {
        // A build part that does not map one to one is no build hash: a failure.
        const [seenNew, seenOld] = [pairs.get(pair[0]), reverse.get(pair[1])];
        if ((seenNew ?? pair[1]) !== pair[1] || (seenOld ?? pair[0]) !== pair[0])
          return {
            request,
            verdict: "failure",
            why: `ETag build part ${pair[0]} → ${pair[1]}, elsewhere → ${seenNew ?? seenOld}`,
            old: a,
            new: b,
          };
        pairs.set(pair[0], pair[1]);
        reverse.set(pair[1], pair[0]);
      }
      return { request, verdict: "identical", old: a, new: b };
    }
    if (isRefusal(a) && b.status === 200) return { request, verdict: "moved", old: a, new: b };
    if (a.status === 200 && b.status === 400)
      return { request, verdict: "regression", why, old: a, new: b };
    return { request, verdict: "failure", why, old: a, new: b };
  });
  const moved = results.filter((r) => r.verdict === "moved");
  if (moved.length === 0 || options.oracle === undefined) return results;
  log(`checking the ${moved.length} moved boundaries against a plain scan…`);
  const bodies = await askAll(
    now,
    moved.map((r) => r.request.path),
    true,
  );
  const checked = new Map<DiffResult, DiffResult>();
  for (const [i, r] of moved.entries()) {
    const why = await options.oracle(r.request, bodies[i] as WorkerAnswer);
    checked.set(
      r,
      why === undefined
        ? { ...r, why: "the count and page agree with a plain scan" }
        : { ...r, verdict: "failure", why: `moved, but ${why}` },
    );
  }
  return results.map((r) => checked.get(r) ?? r);
}

/** The streets of a source file as the build publishes them: rows joined to a municipality, identical rows merged. */
export interface OracleStreets {
  readonly streets: readonly ModelStreet[];
  /** streets[i]'s tsvector (computed on first use: a second a hundred thousand streets). */
  readonly doc: (i: number) => DocumentLexemes;
}

export async function oracleStreets(source: string): Promise<OracleStreets> {
  const { municipalities } = modelRegister();
  const seen = new Set<string>();
  const streets = (await readModelStreets(source)).filter((s) => {
    const identity = JSON.stringify([
      s.regionalKey,
      s.name,
      s.postalCode,
      s.locality,
      s.borough,
      s.suburb,
    ]);
    if (seen.has(identity) || !municipalities.has(s.regionalKey)) return false;
    seen.add(identity);
    return true;
  });
  const docs: (DocumentLexemes | undefined)[] = [];
  return {
    streets,
    doc: (i) => {
      const s = streets[i] as ModelStreet;
      return (docs[i] ??= lexemesOf(streetDocument(s.name, s.postalCode, s.locality)));
    },
  };
}

const collator = new Intl.Collator("de");
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** API order: name (German collation), postal code, borough, suburb, then locality and municipality. */
const apiOrder = (a: ModelStreet, b: ModelStreet) =>
  collator.compare(a.name, b.name) ||
  cmp(a.postalCode, b.postalCode) ||
  collator.compare(a.borough, b.borough) ||
  collator.compare(a.suburb, b.suburb) ||
  cmp(a.locality, b.locality) ||
  cmp(a.regionalKey, b.regionalKey);

/** A request path's search: FullTextSearch's term, or the Streets filters, with its page. */
function parseTarget(path: string) {
  const url = new URL(path, "http://localhost");
  const q = url.searchParams;
  const page = Number(q.get("page") ?? "1");
  const pageSize = Number(q.get("pageSize") ?? "50");
  if (url.pathname.endsWith("/FullTextSearch"))
    return {
      kind: "fts" as const,
      term: q.get("searchTerm") ?? "",
      prefix: q.get("lastWordPrefix") === "true",
      page,
      pageSize,
    };
  if (url.pathname.endsWith("/Streets")) {
    const values: Partial<Record<FilterParameter, string>> = {};
    for (const p of ["name", "postalCode", "locality"] as const) {
      const value = q.get(p);
      if (value !== null) values[p] = value;
    }
    return { kind: "streets" as const, values, page, pageSize };
  }
  return undefined;
}

/** A moved boundary's check: the new answer's x-total-count and page against a plain scan of `oracle`. */
export function scanOracle(oracle: OracleStreets): MovedCheck {
  return (request, answer) => {
    const search = parseTarget(request.path);
    if (search === undefined) return "no oracle for this endpoint";
    const scanned =
      search.kind === "fts"
        ? scanFullText(oracle.streets, oracle.doc, search.term, search.prefix)
        : scanStreets(oracle.streets, search.values);
    if (scanned.status === 400) return "a plain scan refuses it as malformed";
    const expected = scannedPage([...scanned.matched].sort(apiOrder), search.page, search.pageSize);
    const total = answer.headers.find(([name]) => name === "x-total-count")?.[1];
    if (Number(total) !== expected.total)
      return `x-total-count ${total}, a plain scan counts ${expected.total}`;
    const key = (s: { name: string; postalCode: string; locality: string }) =>
      `${s.name}|${s.postalCode}|${s.locality}`;
    let page: { name: string; postalCode: string; locality: string }[];
    try {
      page = JSON.parse(answer.body ?? "") as typeof page;
    } catch {
      return "the body is not JSON";
    }
    const [got, want] = [page.map(key), expected.page.map(key)];
    if (JSON.stringify(got) !== JSON.stringify(want))
      return `its page differs from a plain scan's (first: ${got[0] ?? "none"} vs ${want[0] ?? "none"})`;
    return undefined;
  };
}

/** The two sides of a Streets request: how many streets its name matches alone, and its place filters together. */
export function sideSizes(
  oracle: OracleStreets,
  path: string,
): { name?: number; place?: number } | undefined {
  const search = parseTarget(path);
  if (search?.kind !== "streets") return undefined;
  const count = (params: readonly FilterParameter[]) => {
    const filters = params.flatMap((p) => {
      const value = search.values[p];
      return value === undefined || value === ""
        ? []
        : [[p, parseStreetFilter(p, value.normalize("NFC"))] as const];
    });
    if (filters.length === 0) return undefined;
    return oracle.streets.filter((s) => filters.every(([p, f]) => filterMatches(f, s[p]))).length;
  };
  try {
    const [name, place] = [count(["name"]), count(["locality", "postalCode"])];
    return { ...(name === undefined ? {} : { name }), ...(place === undefined ? {} : { place }) };
  } catch {
    return undefined;
  }
}

/** Counts of each verdict per mix, in the order the mixes first appear. */
export function verdictCounts(
  results: readonly DiffResult[],
): Map<string, Record<Verdict | "refused", number>> {
  const counts = new Map<string, Record<Verdict | "refused", number>>();
  for (const r of results) {
    const row = counts.get(r.request.mix) ?? {
      identical: 0,
      moved: 0,
      regression: 0,
      failure: 0,
      refused: 0,
    };
    row[r.verdict]++;
    if (isRefusal(r.new)) row.refused++;
    counts.set(r.request.mix, row);
  }
  return counts;
}
