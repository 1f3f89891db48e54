/**
 * The address check (docs/SUGGESTIONS.md): whether a street, postal code and locality exist
 * together, and the streets most likely meant. A street of a name near the one given (find.ts)
 * is a candidate when it lies in a locality near the one given or in the postal code given; its
 * cost is the differences from what was given: the name's typos (one more for a name found
 * without its leading words), the locality's (locality.ts: one more for an official name that
 * goes on past what was given; OTHER_PLACE when it lies elsewhere), one for another postal code.
 * Cost 0 is the exact street: the address is valid. Ties: the postal code nearer the one given
 * (leading digits in common), then the street order.
 */
import { MAX_CHECK_SUGGESTIONS } from "./request.ts";
import { NO_PLACE } from "./find.ts";

/** A street of a name near the one given, with the typos and tier of its name. */
export interface CheckedStreet {
  readonly position: number;
  readonly place: number;
  readonly typos: number;
  readonly tier: number;
}

export interface CheckPlaces {
  /** The postal code given. */
  readonly postalCode?: string;
  readonly codeOf: (place: number) => string;
  /** Per place, the differences of its locality from the one given (NO_PLACE: not near); undefined when none was given. */
  readonly locality?: (place: number) => number;
}

/** The cost of a locality that is not near the one given, beside the postal code given. */
const OTHER_PLACE = 2;

interface Costed {
  readonly position: number;
  readonly cost: number;
  readonly common: number;
}

/** Whether the address is valid, and the positions of the streets most likely meant, best first. */
export function checkAddress(
  streets: readonly CheckedStreet[],
  places: CheckPlaces,
): { readonly valid: boolean; readonly positions: number[] } {
  const costed: Costed[] = [];
  const given = places.postalCode;
  for (const street of streets) {
    const code = given === undefined ? undefined : places.codeOf(street.place);
    const samePostalCode = code !== undefined && code === given;
    const locality = places.locality?.(street.place) ?? NO_PLACE;
    const nearLocality = places.locality !== undefined && locality !== NO_PLACE;
    if (!samePostalCode && !nearLocality) continue;
    const cost =
      street.typos +
      (street.tier > 0 ? 1 : 0) +
      (places.locality === undefined ? 0 : nearLocality ? locality : OTHER_PLACE) +
      (given === undefined || samePostalCode ? 0 : 1);
    let common = 0;
    while (given !== undefined && common < given.length && code?.[common] === given[common])
      common++;
    costed.push({ position: street.position, cost, common });
  }
  costed.sort((a, b) => a.cost - b.cost || b.common - a.common || a.position - b.position);
  return {
    valid: costed[0]?.cost === 0,
    positions: costed.slice(0, MAX_CHECK_SUGGESTIONS).map((c) => c.position),
  };
}
