import type { Selector } from "./resource.ts";

/**
 * The two optional filters every `…/Localities` endpoint takes, as the original: `postalCode`
 * (exact) and `name` (exact, case-insensitive). Neither is required: without both, all localities.
 */
export function localitySelectors<R extends { readonly postalCode: string; readonly name: string }>(example: { postalCode: string; name: string }): Selector<R>[] {
  return [
    {
      param: "postalCode",
      in: "query",
      required: false,
      match: "exact",
      description: `Postal code, matched exactly as sent (e.g. ${example.postalCode}; the original's regular expressions are not supported).`,
      value: (r) => r.postalCode,
    },
    {
      param: "name",
      in: "query",
      required: false,
      match: "caseInsensitive",
      description: `Locality name, matched exactly after Unicode NFC normalisation, trimming and lower-casing on both sides (e.g. ${example.name}).`,
      value: (r) => r.name,
    },
  ];
}
