import { PatternTooBroad, withoutUniversal } from "../contract/search/regex-plan.ts";
import { selectView, shardOf } from "../contract/address.ts";
import { pageBounds } from "../contract/paging.ts";
import { validationProblem } from "../contract/problem.ts";
import type { ParsedQuery } from "../contract/query.ts";
import type { RouteResource } from "../contract/routes.ts";
import { SearchTooBroad, type ReadBudget } from "../contract/search/budget.ts";
import { selectRange, setCount } from "../contract/search/algebra.ts";
import { checkedLexemes, checksDocuments } from "../contract/search/bitmaps.ts";
import {
  bitmapsAnswer,
  countBits,
  evaluateBitmaps,
  selectBits,
} from "../contract/search/bitsets.ts";
import { isSingleList } from "../contract/search/evaluate.ts";
import type { ListTree } from "../contract/search/algebra.ts";
import {
  BITMAP_CHECKS,
  entryAt,
  FEW_CHECKS,
  evaluateQuery,
  MOST_CHECKS,
  planQuery,
  planTerms,
  termKey,
  type QueryLeaf,
} from "../contract/search/fulltext.ts";
import type { Postings } from "../contract/search/postings.ts";
import { lexemesOfQuery, type LexemeMatch } from "../contract/postgres/tsquery.ts";
import {
  PREFIX_PARAMETER,
  parseSearchRequest,
  parseStreetFilters,
  SEARCH_TERM_PARAMETER,
  STREET_FILTERS,
} from "../contract/search/request.ts";
import { listCount } from "../contract/search/store.ts";
import type { AssetStore } from "./assets.ts";
import type { ServeContext } from "./context.ts";
import { servePaged } from "./paged.ts";
import { findStreets, type Found } from "./search-filters.ts";
import { SearchIndex } from "./search-index.ts";
import { mixedBitmaps } from "./search-mixed.ts";
import { answer } from "./search-answer.ts";
/** `/{country}/FullTextSearch`: the page of streets that match the search term. */
export async function serveFullText(
  ctx: ServeContext,
  resource: RouteResource,
  query: ParsedQuery,
): Promise<Response> {
  const parsed = parseSearchRequest(
    query.filters.get(SEARCH_TERM_PARAMETER),
    query.filters.get(PREFIX_PARAMETER),
  );
  if (!parsed.ok) return ctx.respond.problem(validationProblem(parsed.errors, parsed.detail));
  const search = parsed.value;
  const question = search.root === null ? "" : JSON.stringify(search.root);
  return await withinBudget(
    ctx,
    resource,
    query,
    question,
    [SEARCH_TERM_PARAMETER],
    FULL_TEXT_NARROWER,
    async (index, budget, { start, end }) => {
      if (search.root === null) return { total: 0, page: [] };
      const lists = await index.termLists(lexemesOfQuery(search), budget);
      if (isSingleList(search)) {
        const [ref] = lists(search.root as LexemeMatch);
        return ref === undefined
          ? { total: 0, page: [] }
          : {
              total: listCount(ref),
              page: await index.slice(ref, start, Math.min(end, listCount(ref)), budget),
            };
      }
      if (bitmapsAnswer(search.root, (key) => index.bitmaps.has(key))) {
        // Every term has a bitmap: and/or/not over them, counted and paged without a list, when they and the page's record and head files fit.
        const keys = lexemesOfQuery(search).map(termKey);
        const found = evaluateBitmaps(
          search.root,
          await index.bitmaps.read(keys),
          index.meta.count,
        );
        const positions = selectBits(found, start, end);
        const files = new Map([
          ...index.bitmaps.files(keys),
          ...(await index.streets.filesAt(positions)),
        ]);
        if (budget.fits(files, TAILS_RESERVE)) {
          for (const [path, bytes] of files) budget.charge(path, bytes);
          return {
            total: countBits(found),
            page: await index.streets.streetsAt(positions, budget),
          };
        }
      }
      const entries = (term: LexemeMatch) =>
        lists(term).reduce((sum, ref) => sum + listCount(ref), 0);
      const termsOf = (plan: ListTree<QueryLeaf>) => [
        ...new Map(planTerms(plan).map((term) => [termKey(term), term])).values(),
      ];
      // The plan reads lists where it can, else checks more candidates one by one (e.g. a common word beside a city).
      // A phrase's words without bitmaps narrow its candidates by their lists, unless those do not fit.
      const narrowed = planQuery(
        search.root,
        entries,
        FEW_CHECKS,
        (term) => !index.bitmaps.has(termKey(term)),
      );
      const fewer = index.listsFit(termsOf(narrowed).flatMap(lists), budget, PAGE_RESERVE)
        ? narrowed
        : planQuery(search.root, entries, FEW_CHECKS, () => false);
      // Else a word with a bitmap is checked rather than read (its lists counted as every street), when the other lists and its bitmap fit.
      const bitsChecked = planQuery(
        search.root,
        (term) => (index.bitmaps.has(termKey(term)) ? index.meta.count : entries(term)),
        BITMAP_CHECKS,
      );
      const bitmapShare =
        (index.bitmaps.bytesOf(checkedLexemes(bitsChecked)) + 1) / index.meta.readBudget;
      const fewerFits = index.listsFit(termsOf(fewer).flatMap(lists), budget, PAGE_RESERVE);
      const bitsFit =
        !fewerFits &&
        index.listsFit(termsOf(bitsChecked).flatMap(lists), budget, TAILS_RESERVE + bitmapShare);
      const most = planQuery(search.root, entries, MOST_CHECKS, () => false);
      if (!fewerFits && !bitsFit && !index.listsFit(termsOf(most).flatMap(lists), budget, 0)) {
        // Every plan would be refused: the common words' bitmaps with the others' lists made bitmaps, when those fit.
        const terms = [...new Map(lexemesOfQuery(search).map((t) => [termKey(t), t])).values()];
        const mixed = await mixedBitmaps(index, search.root, terms, lists, budget, { start, end });
        if (mixed !== undefined) return mixed;
      }
      const plan = fewerFits ? fewer : bitsFit ? bitsChecked : most;
      const terms = termsOf(plan);
      const refs = terms.map((term) => lists(term));
      const decoded = await index.postings(refs.flat(), budget);
      const byTerm = new Map<string, Postings[]>();
      terms.forEach((term, i) =>
        byTerm.set(termKey(term), decoded.splice(0, refs[i]?.length ?? 0)),
      );
      // Checks against common words are bit tests (when their bitmaps fit); only the others need the places.
      const bitmaps = await index.bitmaps.of(checkedLexemes(plan), budget, TAILS_RESERVE);
      const places = checksDocuments(plan, bitmaps) ? await index.places(budget) : undefined;
      const found = evaluateQuery(plan, {
        postings: (term) => byTerm.get(termKey(term)) ?? [],
        places,
        size: index.meta.count,
        bitmaps,
      });
      const size = index.meta.count;
      const positions = selectRange(found, size, start, end);
      // Streets outside every list (`-berlin`) are looked up by position; the others are on a list already read.
      const everyList = [...byTerm.values()].flat();
      const page = found.negated
        ? await index.streets.streetsAt([...positions], budget)
        : Array.from(
            positions,
            (position) => entryAt(everyList, position) ?? { position, place: 0, head: [] },
          );
      return { total: setCount(found, size), page };
    },
  );
}

/**
 * `/{country}/Streets` with search: a value of `locality` alone that names a locality is its view
 * (as without search); any other combination of `name`, `postalCode` and `locality` is answered
 * from the index.
 */
export async function serveStreets(
  ctx: ServeContext,
  resource: RouteResource,
  params: ReadonlyMap<string, string>,
  query: ParsedQuery,
): Promise<Response> {
  const given = STREET_FILTERS.filter((p) => query.filters.has(p));
  if (
    given.length === 1 &&
    given[0] === "locality" &&
    (await hasView(ctx.store, ctx.origin, resource, query))
  )
    return await servePaged(ctx, resource, params, query);
  const { meta } = await indexOf(ctx, resource);
  const parsed = parseStreetFilters(
    query.filters,
    resource.selectors.find((s) => s.param === "locality")?.missing ??
      "No name, postal code or locality given.",
    {
      name: meta.nameCharacters,
      postalCode: meta.columns.postalCode.characters,
      locality: meta.columns.locality.characters,
    },
  );
  if (!parsed.ok) return ctx.respond.problem(validationProblem(parsed.errors, parsed.detail));
  const filters = parsed.value;
  const question = JSON.stringify(given.map((p) => [p, query.filters.get(p)?.normalize("NFC")]));
  return await withinBudget(
    ctx,
    resource,
    query,
    question,
    given,
    STREETS_NARROWER,
    async (index, budget, { start, end }) => {
      return await findStreets(index, withoutUniversal(filters, index.meta), budget, start, end);
    },
  );
}

/**
 * Finds the matches and answers with their page, everything read charged to one ReadBudget: a
 * search that would read more is a 400 naming `parameters` and saying how to narrow them.
 */
async function withinBudget(
  ctx: ServeContext,
  resource: RouteResource,
  query: ParsedQuery,
  question: string,
  parameters: readonly string[],
  narrower: string,
  find: (
    index: SearchIndex,
    budget: ReadBudget,
    bounds: { readonly start: number; readonly end: number },
  ) => Promise<Found>,
): Promise<Response> {
  const index = await indexOf(ctx, resource);
  const budget = index.budget();
  try {
    const found = await find(
      index,
      budget,
      pageBounds(query.page, query.pageSize, Number.MAX_SAFE_INTEGER),
    );
    return await answer(ctx, resource, index, budget, found, query, question);
  } catch (error) {
    if (error instanceof PatternTooBroad)
      return ctx.respond.problem(
        validationProblem({ [error.parameter]: [error.message] }, error.message),
      );
    if (!(error instanceof SearchTooBroad)) throw error;
    const message = `This search matches too broadly to be answered: it would read more than ${Math.floor(index.meta.readBudget / 1024)} KiB of the search index. To narrow it, ${narrower}.`;
    return ctx.respond.problem(
      validationProblem(Object.fromEntries(parameters.map((p) => [p, [message]])), message),
    );
  }
}

async function hasView(
  store: AssetStore,
  origin: string,
  resource: RouteResource,
  query: ParsedQuery,
): Promise<boolean> {
  const selection = selectView(resource.selectors, (s) => query.filters.get(s.param));
  if (!selection.ok) return false;
  const shard = await store.shard(origin, resource.id, shardOf(selection.key, resource.shards));
  return shard.entries.has(selection.key);
}

/** The share of the read budget a plan leaves for the places (to check candidates) and the page's tails. */
const PAGE_RESERVE = 0.4;
/** The share of the budget bitmaps leave for a page's tails (at most 50 tail files of about 5 KB nationally). */
const TAILS_RESERVE = 0.25;

const FULL_TEXT_NARROWER = "add a word, a postal code or a locality, or make the last word longer";
const STREETS_NARROWER = "add postalCode or locality, or give a longer name";

/** Indexes opened per isolate, by store and country (resolved ones only; see AssetStore). */
const opened = new WeakMap<AssetStore, Map<string, SearchIndex>>();
async function indexOf(ctx: ServeContext, resource: RouteResource): Promise<SearchIndex> {
  const country = resource.search?.country ?? "";
  let byCountry = opened.get(ctx.store);
  if (byCountry === undefined) opened.set(ctx.store, (byCountry = new Map()));
  const cached = byCountry.get(country);
  if (cached !== undefined) return cached;
  const index = await SearchIndex.open(ctx.store, ctx.origin, country);
  byCountry.set(country, index);
  return index;
}
