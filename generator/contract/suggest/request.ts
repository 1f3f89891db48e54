/**
 * The parameters of Suggestions and AddressCheck as the Worker reads them; bad input is an error
 * listing per parameter, answered with a 400 problem like every other endpoint's.
 */
import type { Parsed } from "../search/request.ts";

export const SUGGEST_TERM_PARAMETER = "searchTerm";
export const ADDRESS_CHECK_PARAMETERS = ["postalCode", "locality", "street"] as const;
/** Suggestions an address check lists at most. */
export const MAX_CHECK_SUGGESTIONS = 10;

export interface AddressQuery {
  readonly street: string;
  readonly postalCode?: string;
  readonly locality?: string;
}

/** .NET's char.IsWhiteSpace, as the other endpoints trim. */
const BLANK = /^[\s\u0085\u180e]*$/u;

const fail = (parameter: string, message: string, detail = message): Parsed<never> => ({
  ok: false,
  errors: { [parameter]: [message] },
  detail,
});

/** A Suggestions request's text (as sent; empty counts as absent; its length parseQuery checked, limits.ts). */
export function parseSuggestTerm(term: string | undefined): Parsed<string> {
  if (term === undefined || BLANK.test(term))
    return fail(
      SUGGEST_TERM_PARAMETER,
      `The ${SUGGEST_TERM_PARAMETER} field is required.`,
      `No ${SUGGEST_TERM_PARAMETER} given.`,
    );
  return { ok: true, value: term.normalize("NFC") };
}

/** An AddressCheck request: a street, and a postal code of digits or a locality, or both. */
export function parseAddressQuery(given: ReadonlyMap<string, string>): Parsed<AddressQuery> {
  const value = (name: string) => {
    const raw = given.get(name);
    return raw === undefined || BLANK.test(raw) ? undefined : raw.normalize("NFC").trim();
  };
  const street = value("street");
  const postalCode = value("postalCode")?.replace(/\s+/gu, "");
  const locality = value("locality");
  if (street === undefined)
    return fail("street", "The street field is required.", "No street given.");
  if (postalCode === undefined && locality === undefined) {
    const message = "Give a postalCode or a locality (or both) with the street.";
    return {
      ok: false,
      errors: { postalCode: [message], locality: [message] },
      detail: "No postal code or locality given.",
    };
  }
  if (postalCode !== undefined && !/^[0-9]{1,10}$/.test(postalCode))
    return fail(
      "postalCode",
      `The value '${postalCode.slice(0, 40)}' is not valid for postalCode: use digits only.`,
    );
  return {
    ok: true,
    value: {
      street,
      ...(postalCode === undefined ? {} : { postalCode }),
      ...(locality === undefined ? {} : { locality }),
    },
  };
}
