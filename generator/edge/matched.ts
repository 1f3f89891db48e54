import { matchTablePath, shardOf } from "../contract/address.ts";
import { CONTENT_TYPES, fnv, pageEtag, pagingHeaders } from "../contract/headers.ts";
import {
  decodeMatchTable,
  matchRecords,
  type ColumnTest,
  type MatchTable,
} from "../contract/match-table.ts";
import { renderPage } from "../contract/page.ts";
import { pageBounds, pageCount } from "../contract/paging.ts";
import { validationProblem } from "../contract/problem.ts";
import type { Format, ParsedQuery } from "../contract/query.ts";
import { exactLiterals } from "../contract/regex/exact.ts";
import { foldKey } from "../contract/regex/fold.ts";
import {
  ALL,
  literalQuery,
  withoutShortLiterals,
  type LiteralQuery,
} from "../contract/regex/literals.ts";
import type { Node } from "../contract/regex/ast.ts";
import { matchesEmpty, matchesEveryOf } from "../contract/regex/universal.ts";
import {
  compileTree,
  parseFilterPattern,
  patternErrorMessage,
  surelyAccepted,
  type PatternResult,
} from "../contract/regex/pattern.ts";
import type { PatternFiltersSpec, RouteResource } from "../contract/routes.ts";
import type { ShardEntry } from "../contract/shard.ts";
import type { AssetStore } from "./assets.ts";
import type { ServeContext } from "./context.ts";
import { readPackedRuns } from "./packed.ts";
import { headerLine, inlinePage, packedOf, packedStream } from "./paged.ts";
import { ifNoneMatch, type HeaderList } from "./responses.ts";

/**
 * A resource with pattern filters (`…/Localities`): the filters are compiled (a 400 naming the
 * parameter when one is refused), matched over the resource's match table, and the page's records
 * are taken from its one view, inlined or packed, by position.
 */
export async function serveMatched(
  ctx: ServeContext,
  resource: RouteResource,
  patterns: PatternFiltersSpec,
  query: ParsedQuery,
): Promise<Response> {
  const { request, origin, store, respond, format } = ctx;
  const given = patterns.filters.flatMap(({ param, ignoreCase }) => {
    const value = query.filters.get(param);
    return value === undefined ? [] : [{ param, ignoreCase, value: value.normalize("NFC") }];
  });
  if (given.length === 0)
    return respond.problem(
      validationProblem(
        Object.fromEntries(patterns.filters.map((f) => [f.param, [patterns.missing]])),
        patterns.missing,
      ),
    );
  const parsed: { param: string; ignoreCase: boolean; value: string; tree: Node }[] = [];
  const errors: Record<string, string[]> = {};
  for (const { param, ignoreCase, value } of given) {
    const result = parseFilterPattern(value, { ignoreCase });
    if (result.ok) parsed.push({ param, ignoreCase, value, tree: result.tree });
    else errors[param] = [patternErrorMessage(param, result.error)];
  }
  const refused = Object.values(errors)[0]?.[0];
  if (refused !== undefined) return respond.problem(validationProblem(errors, refused));

  const [table, shard] = await Promise.all([
    matchTableOf(store, origin, resource.id),
    store.shard(origin, resource.id, shardOf("", resource.shards)),
  ]);
  const tests: ColumnTest[] = [];
  for (const { param, ignoreCase, value, tree } of parsed) {
    const column = table.columns.get(param);
    const fold = ignoreCase ? foldKey : (text: string) => text;
    // Only strings (`Frankfurt`, `^(Berlin|Köln)$`): a search of the values decides, and the
    // pattern, surely within the limits, is not compiled unless a value is tested after all.
    const accepted = surelyAccepted(tree);
    const exact =
      column === undefined || (ignoreCase && !column.foldable) || !accepted
        ? undefined
        : exactLiterals(tree, fold, column.alphabet);
    // Compiled only if a value is tested after all (exact strings test none).
    const test = (text: string) => {
      const compiled = compiledOf(table, param, value, tree);
      return compiled.ok && compiled.pattern.test(text);
    };
    if (exact !== undefined) {
      tests.push({ param, test, literals: { query: ALL, folded: ignoreCase }, exact });
      continue;
    }
    // A pattern that matches every value of its column (`postalCode=^[0-9]{5}$`) tests none;
    // it is compiled only when that is needed to know whether it is refused as too large.
    const universal = column !== undefined && (matchesEmpty(tree) || matchesEveryOf(tree, column));
    if (universal && accepted) continue;
    const compiled = compiledOf(table, param, value, tree);
    if (!compiled.ok) errors[param] = [patternErrorMessage(param, compiled.error)];
    else if (!universal)
      tests.push({
        param,
        test: compiled.pattern.test,
        testIn: compiled.pattern.testIn,
        literals: { query: prefilter(tree, ignoreCase), folded: ignoreCase },
      });
  }
  const tooLarge = Object.values(errors)[0]?.[0];
  if (tooLarge !== undefined) return respond.problem(validationProblem(errors, tooLarge));
  const entry = shard.entries.get("");
  const matched = entry === undefined ? [] : matchRecords(table, tests);
  const { page, pageSize } = query;
  const question = JSON.stringify(given.map(({ param, value }) => [param, value]));
  const headers: HeaderList = [
    ["Content-Type", CONTENT_TYPES[format]],
    [
      "ETag",
      pageEtag(`${(entry?.hash ?? "0").slice(0, 8)}${fnv(question)}`, pageSize, page, format),
    ],
    ...pagingHeaders(page, pageSize, matched.length),
    ...ctx.vary,
  ];
  if (ifNoneMatch(request, headers)) return respond.empty(304, headers);
  if (entry === undefined || page > pageCount(matched.length, pageSize))
    return respond.body(200, renderPage(format, headerLine(resource).text, []), headers);
  const { start, end } = pageBounds(page, pageSize, matched.length);
  const positions = matched.slice(start, end);
  if (entry.records !== undefined)
    return respond.body(
      200,
      inlinePage(
        resource,
        positions.map((p) => entry.records?.[p]),
        format,
      ),
      headers,
    );
  return respond.body(200, await packedRecordsAt(ctx, resource, entry, positions, format), headers);
}

/** The page of the view's packed records at `positions` (ascending): one slice per run of consecutive positions, framed as a page. */
async function packedRecordsAt(
  ctx: ServeContext,
  resource: RouteResource,
  entry: ShardEntry,
  positions: readonly number[],
  format: Format,
): Promise<Uint8Array> {
  const stream = packedStream(ctx, resource, format);
  const runs: [start: number, end: number][] = [];
  for (let i = 0; i < positions.length;) {
    let j = i + 1;
    while (j < positions.length && positions[j] === (positions[j - 1] ?? 0) + 1) j++;
    runs.push([positions[i] ?? 0, (positions[j - 1] ?? 0) + 1]);
    i = j;
  }
  const pieces = await readPackedRuns(stream, packedOf(entry, format), entry.total, runs);
  const separator = format === "json" ? 1 : 0;
  const [prefix, suffix] =
    format === "json"
      ? [new Uint8Array([0x5b]), new Uint8Array([0x5d])]
      : [stream.csvHeaderLine, new Uint8Array()];
  const body = new Uint8Array(
    prefix.length +
      pieces.reduce((sum, piece) => sum + piece.length, 0) +
      separator * Math.max(0, pieces.length - 1) +
      suffix.length,
  );
  body.set(prefix, 0);
  let at = prefix.length;
  pieces.forEach((piece, k) => {
    if (k > 0 && separator > 0) body[at++] = 0x2c;
    body.set(piece, at);
    at += piece.length;
  });
  body.set(suffix, at);
  return body;
}

/**
 * The literals a value must contain before the engine sees it: those of two characters or more;
 * failing those, up to four one-letter ones (`(.{1,10}){1,10}z` needs a `z`: a substring test per
 * value spares the engine most values), not more (each costs a scan of every value).
 */
function prefilter(tree: Node, ignoreCase: boolean): LiteralQuery {
  const all = literalQuery(tree, ignoreCase ? foldKey : (text) => text);
  const long = withoutShortLiterals(all, 2);
  return long.op === "all" && literalCount(all) <= 4 ? all : long;
}

function literalCount(query: LiteralQuery): number {
  if (query.op === "all") return 0;
  if (query.op === "literal") return 1;
  return query.of.reduce((sum, q) => sum + literalCount(q), 0);
}

/**
 * Patterns compiled per isolate and match table, the engine's states with them: a pattern asked
 * again (the next page, the same address form) skips compiling and starts from a warm engine.
 */
const COMPILED_KEPT = 64;
const compiledPatterns = new WeakMap<MatchTable, Map<string, PatternResult>>();
function compiledOf(table: MatchTable, param: string, source: string, tree: Node): PatternResult {
  let byPattern = compiledPatterns.get(table);
  if (byPattern === undefined) compiledPatterns.set(table, (byPattern = new Map()));
  const key = `${param}\n${source}`;
  const kept = byPattern.get(key);
  if (kept !== undefined) return kept;
  const compiled = compileTree(source, tree, table.columns.get(param)?.alphabet);
  if (byPattern.size >= COMPILED_KEPT) byPattern.delete(byPattern.keys().next().value ?? "");
  byPattern.set(key, compiled);
  return compiled;
}

/** Match tables read per isolate, by store and resource (resolved ones only; see AssetStore). */
const tables = new WeakMap<AssetStore, Map<string, MatchTable>>();
async function matchTableOf(
  store: AssetStore,
  origin: string,
  resource: string,
): Promise<MatchTable> {
  let byResource = tables.get(store);
  if (byResource === undefined) tables.set(store, (byResource = new Map()));
  const cached = byResource.get(resource);
  if (cached !== undefined) return cached;
  const table = decodeMatchTable(
    new Uint8Array(await (await store.require(origin, matchTablePath(resource))).arrayBuffer()),
  );
  byResource.set(resource, table);
  return table;
}
