export type Street = Readonly<Record<string, unknown>> & {
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
};

/** Which streets share a tail, and a name (tailClasses). */
export interface TailClasses {
  /** A tail's number per street, by index. */
  readonly of: Int32Array;
  readonly count: number;
  /** A name's number per street, by index: the same for streets of one name. */
  readonly name: Int32Array;
}

/**
 * Which streets share a tail (`of`: a number per street, by index; `count` of them): streets of one
 * postal code and locality mostly share one, so each street is compared, property by property
 * (nested objects by identity: the model shares one object per municipality, district, state),
 * with the tails seen there before. A tail is rendered once, not once per street. `name`: a number
 * per street, the same for streets of one name.
 */
export function tailClasses(
  streets: readonly Street[],
  headKeys: readonly string[],
  resource: string,
): TailClasses {
  // By postal code, then locality (no key string per street).
  const seen = new Map<string, Map<string, { readonly street: Street; readonly id: number }[]>>();
  let count = 0;
  const sameTail = (a: Street, b: Street): boolean => {
    let properties = 0;
    for (const name in a) {
      properties++;
      if (!headKeys.includes(name) && a[name] !== b[name]) return false;
    }
    for (const _ in b) properties--;
    return properties === 0;
  };
  const classOf = (street: Street): number => {
    let i = 0;
    for (const name in street) {
      if (i === headKeys.length) break;
      if (name !== headKeys[i++])
        throw new Error(`${resource}: a record does not start with ${headKeys.join(", ")}`);
    }
    let ofCode = seen.get(street.postalCode);
    if (ofCode === undefined) seen.set(street.postalCode, (ofCode = new Map()));
    let tails = ofCode.get(street.locality);
    if (tails === undefined) ofCode.set(street.locality, (tails = []));
    for (const tail of tails) if (sameTail(tail.street, street)) return tail.id;
    tails.push({ street, id: count });
    return count++;
  };
  const of = new Int32Array(streets.length);
  const name = new Int32Array(streets.length);
  const names = new Map<string, number>();
  for (let i = 0; i < streets.length; i++) {
    const street = streets[i] as Street;
    of[i] = classOf(street);
    let id = names.get(street.name);
    if (id === undefined) names.set(street.name, (id = names.size));
    name[i] = id;
  }
  return { of, count, name };
}
