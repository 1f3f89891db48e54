import { CONTENT_TYPES, fnv } from "../contract/headers.ts";
import { pageBounds } from "../contract/paging.ts";
import { validationProblem } from "../contract/problem.ts";
import type { ParsedQuery } from "../contract/query.ts";
import type { RouteResource } from "../contract/routes.ts";
import { SearchTooBroad } from "../contract/search/plan.ts";
import { checkAddress, type CheckedStreet } from "../contract/suggest/check.ts";
import { NO_PLACE } from "../contract/suggest/find.ts";
import { pageOf } from "../contract/suggest/rank.ts";
import {
  parseAddressQuery,
  parseSuggestTerm,
  SUGGEST_TERM_PARAMETER,
  type AddressQuery,
} from "../contract/suggest/request.ts";
import { partOfText, readingsOf } from "../contract/suggest/text.ts";
import type { ServeContext } from "./context.ts";
import { ifNoneMatch } from "./responses.ts";
import { Finder, PAGE_RESERVE, readFor, suggestGroups } from "./suggest-find.ts";
import { SuggestIndex } from "./suggest-index.ts";
import { SuggestStreets, type ReadBudget } from "./suggest-streets.ts";

/** The indexes a request reads, and its budget (charged with both metas). */
async function open(ctx: ServeContext, resource: RouteResource) {
  const country = resource.search?.country ?? "";
  const [streets, index] = await Promise.all([
    SuggestStreets.open(ctx.store, ctx.origin, country),
    SuggestIndex.open(ctx.store, ctx.origin, country),
  ]);
  const budget = streets.budget();
  index.chargeMeta(budget);
  return { streets, index, budget };
}

/** A request whose reads would exceed the budget (only extreme texts): a 400 saying how to narrow it. */
function tooBroad(ctx: ServeContext, parameter: string, budget: number): Response {
  const message = `This text matches too broadly to be answered: it would read more than ${Math.floor(budget / 1024)} KiB of the index. To narrow it, type more of the street name or fewer words.`;
  return ctx.respond.problem(validationProblem({ [parameter]: [message] }, message));
}

/** `/{country}/Suggestions`: the page of streets that best match the text (docs/SUGGESTIONS.md). */
export async function serveSuggestions(
  ctx: ServeContext,
  resource: RouteResource,
  query: ParsedQuery,
): Promise<Response> {
  const parsed = parseSuggestTerm(query.filters.get(SUGGEST_TERM_PARAMETER));
  if (!parsed.ok) return ctx.respond.problem(validationProblem(parsed.errors, parsed.detail));
  const { streets, index, budget } = await open(ctx, resource);
  try {
    const readings = readingsOf(parsed.value);
    const finder = new Finder(index, await readFor(index, readings, budget));
    const groups = await suggestGroups(streets, finder, readings, budget);
    const { start, end } = pageBounds(query.page, query.pageSize, Number.MAX_SAFE_INTEGER);
    const { total, positions } = pageOf(groups, start, end);
    const question = `${index.meta.hash}\u0000${parsed.value}`;
    return await streets.page(ctx, resource, budget, total, positions, query, question);
  } catch (error) {
    if (error instanceof SearchTooBroad)
      return tooBroad(ctx, SUGGEST_TERM_PARAMETER, streets.readBudget);
    throw error;
  }
}

/** `/{country}/AddressCheck`: `{ valid, suggestions }` as JSON (docs/SUGGESTIONS.md). */
export async function serveAddressCheck(
  ctx: ServeContext,
  resource: RouteResource,
  query: ParsedQuery,
): Promise<Response> {
  if (query.format === "csv") {
    const message = "The address check answers JSON only: use format=json or leave format out.";
    return ctx.respond.problem(validationProblem({ format: [message] }, message));
  }
  const parsed = parseAddressQuery(query.filters);
  if (!parsed.ok) return ctx.respond.problem(validationProblem(parsed.errors, parsed.detail));
  const { streets, index, budget } = await open(ctx, resource);
  try {
    const body = await check(streets, index, parsed.value, budget);
    const headers = [
      ["Content-Type", CONTENT_TYPES.json],
      [
        "ETag",
        `"${index.meta.hash.slice(0, 8)}${fnv(`${resource.id}\u0000${JSON.stringify(parsed.value)}`)}"`,
      ],
    ] as const;
    if (ifNoneMatch(ctx.request, headers)) return ctx.respond.empty(304, headers);
    return ctx.respond.body(200, body, headers);
  } catch (error) {
    if (error instanceof SearchTooBroad) return tooBroad(ctx, "street", streets.readBudget);
    throw error;
  }
}

/** The check's JSON: whether the address is valid, and the streets most likely meant. */
async function check(
  streets: SuggestStreets,
  index: SuggestIndex,
  address: AddressQuery,
  budget: ReadBudget,
): Promise<string> {
  const street = partOfText(address.street);
  const locality = address.locality === undefined ? undefined : partOfText(address.locality);
  const reading = { street, ...(locality === undefined ? {} : { locality }) };
  const finder = new Finder(index, await readFor(index, [reading], budget, true, true));
  const places = await index.places(budget);
  // A locality given but near none: no street lies in it.
  const near =
    locality === undefined ? undefined : (finder.localitiesOf(locality)?.of ?? (() => NO_PLACE));
  const candidates: CheckedStreet[] = [];
  // The street as typed and within its typos (a name written exactly may be in another locality).
  for (const raw of street.raw === undefined ? [false] : [false, true]) {
    if (raw && finder.namesOf(street).some((hit) => hit.typos <= 1)) break;
    for (let typos = 0; typos <= street.k; typos++) finder.pass([street], { typos, raw });
  }
  const hits = [...finder.namesOf(street)].sort(
    (a, b) => a.typos - b.typos || a.tier - b.tier || a.position - b.position,
  );
  const placesOf = await streets.placesOfNames(hits, budget, PAGE_RESERVE);
  hits.forEach((hit, k) =>
    placesOf[k]?.forEach((place, i) =>
      candidates.push({ position: hit.position + i, place, typos: hit.typos, tier: hit.tier }),
    ),
  );
  const { valid, positions } = checkAddress(candidates, {
    ...(address.postalCode === undefined ? {} : { postalCode: address.postalCode }),
    codeOf: (place) => places.codeOfPlace(place),
    ...(near === undefined ? {} : { locality: near }),
  });
  const records = await streets.records(positions, budget);
  return `{"valid":${valid},"suggestions":[${records.map((r) => r.json).join(",")}]}`;
}
