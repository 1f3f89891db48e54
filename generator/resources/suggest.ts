import {
  ADDRESS_CHECK_PARAMETERS,
  MAX_CHECK_SUGGESTIONS,
  SUGGEST_TERM_PARAMETER,
} from "../contract/suggest/request.ts";
import { MAX_SEARCH_TERM_LENGTH } from "../contract/search/request.ts";
import type { AnyResource, QueryParameter, RequestExample, Resource } from "./resource.ts";

/**
 * What an address form needs (docs/SUGGESTIONS.md): `/{country}/Suggestions`, the streets that
 * best match free text as a person types it, typos and all, and `/{country}/AddressCheck`,
 * whether a postal code, locality and street exist together and what was most likely meant.
 * Both answer from the country's suggestions index, which the build writes beside the search
 * index of its Streets resource, for every country whose streets it has.
 */

const TOLERANCE =
  "Tolerated: one typo in a word of 5 to 8 letters and two in a word of 9 or more (a letter left out, added, replaced, or two swapped; at most two per street, none in a word of fewer than 5 letters), case, ä/ae, ö/oe, ü/ue, ß/ss and other accents, str, str. and strasse for straße, pl. for platz, a missing or extra space or hyphen (Karl Marx Allee, Frankfurterallee), and leading words of a name such as Am or An der.";

const SUGGEST_PARAMETERS: readonly QueryParameter[] = [
  {
    name: SUGGEST_TERM_PARAMETER,
    required: true,
    description: `What a person typed, at most ${MAX_SEARCH_TERM_LENGTH} characters: a street, and maybe a postal code (whole or its first digits) and a locality, in any order. The last word may be unfinished (Schützenstr, Kurfürst) unless the text ends in a space. ${TOLERANCE} A postal code or locality narrows each street name to its streets nearest to them. Best first: fewest typos, then the whole name before a name begun (and before one found without its leading words), then nearest to the postal code and locality, then the order of Streets. Missing or blank: 400.`,
  },
];

const CHECK_PARAMETERS: readonly QueryParameter[] = [
  {
    name: "street",
    required: true,
    description: `The street as entered. ${TOLERANCE}`,
  },
  {
    name: "postalCode",
    description: "The postal code as entered: digits only (spaces are ignored).",
  },
  {
    name: "locality",
    description:
      "The locality as entered (case, spaces and transliterations are ignored; typos are suggested).",
  },
];

const SUGGEST_EXAMPLES: Readonly<Record<string, readonly RequestExample[]>> = {
  de: [
    {
      summary: "A street with a typo and its postal code",
      query: { searchTerm: "Schützenstrase 10117" },
    },
    { summary: "While typing", query: { searchTerm: "Kurfürst" } },
    { summary: "Abbreviated, with the locality", query: { searchTerm: "Muellerstr Berlin" } },
  ],
  at: [{ summary: "A street with a typo", query: { searchTerm: "Achgase Bregenz" } }],
  ch: [{ summary: "While typing", query: { searchTerm: "Bahnhofst" } }],
  li: [{ summary: "While typing", query: { searchTerm: "Bahnhofst" } }],
};

const CHECK_EXAMPLES: Readonly<Record<string, readonly RequestExample[]>> = {
  de: [
    {
      summary: "Schützenstraße is in 10117, not 10115",
      query: { postalCode: "10115", locality: "Berlin", street: "Schützenstraße" },
    },
    {
      summary: "A valid address, written loosely",
      query: { postalCode: "10117", locality: "berlin", street: "schuetzenstr." },
    },
  ],
  at: [
    {
      summary: "A typo in the street",
      query: { postalCode: "6900", locality: "Bregenz", street: "Achgase" },
    },
  ],
  ch: [
    {
      summary: "A typo in the street",
      query: { postalCode: "8001", locality: "Zürich", street: "Bahnhofstrase" },
    },
  ],
  li: [
    {
      summary: "A valid address",
      query: { postalCode: "9490", locality: "Vaduz", street: "Städtle" },
    },
  ],
};

function suggestingResource(
  streets: AnyResource,
  role: "suggestions" | "addressCheck",
  fields: Pick<
    Resource<never>,
    "id" | "path" | "title" | "description" | "query" | "queryParameters" | "examples"
  >,
): AnyResource {
  const country = streets.search?.country ?? "";
  const resource: Resource<never> = {
    ...fields,
    search: { country, role },
    sortKey: streets.sortKey,
    record: streets.record,
    credits: streets.credits,
  };
  return resource as unknown as AnyResource;
}

/** `/{country}/Suggestions` over a Streets resource with search. */
export function suggestionsOf(streets: AnyResource): AnyResource {
  const country = streets.search?.country ?? "";
  return suggestingResource(streets, "suggestions", {
    id: `${country}.suggestions`,
    path: `/${country}/Suggestions`,
    title: `${streets.title}: suggestions`,
    description: `The streets of ${streets.path} that best match what a person types, typos and all, best first: for an address form's street field. The same records, paging and headers as ${streets.path}; text with no street near it finds none.`,
    query: { paged: true, filters: [SUGGEST_TERM_PARAMETER], unservedFilters: [] },
    queryParameters: SUGGEST_PARAMETERS,
    examples: SUGGEST_EXAMPLES[country] ?? [],
  });
}

/** `/{country}/AddressCheck` over a Streets resource with search. */
export function addressCheckOf(streets: AnyResource): AnyResource {
  const country = streets.search?.country ?? "";
  return suggestingResource(streets, "addressCheck", {
    id: `${country}.addresscheck`,
    path: `/${country}/AddressCheck`,
    title: `${streets.title}: address check`,
    description: `Whether a street, postal code and locality exist together in ${streets.path} (after normalising case, spaces, str. and transliterations), and the streets most likely meant, best first (at most ${MAX_CHECK_SUGGESTIONS}): the exact street when valid; the same street in another postal code of the locality; a typo in the street or the locality; the locality's official spelling. A JSON object { valid, suggestions }, not paged.`,
    query: { paged: false, filters: [...ADDRESS_CHECK_PARAMETERS], unservedFilters: [] },
    queryParameters: CHECK_PARAMETERS,
    examples: CHECK_EXAMPLES[country] ?? [],
  });
}
