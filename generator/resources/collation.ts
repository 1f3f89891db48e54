/**
 * German sort order after DIN 5007-1 (dictionary order), implemented as plain string keys so that it
 * is the same on every machine and ICU version: letters compare without case and diacritics
 * (ä = a, ö = o, ü = u, ß = ss); ties are broken by the accented form, then by case, then by code
 * unit, so the order is total. Compare keys with `<`, never with localeCompare.
 */
export function collationKey(value: string): string {
  let key = memo.get(value);
  if (key === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    key = computeKey(value);
    memo.set(value, key);
  }
  return key;
}

/** Names repeat (every town has a Hauptstraße): a key is computed once per distinct value, up to this many kept. */
const MEMO_LIMIT = 200_000;
const memo = new Map<string, string>();

function computeKey(value: string): string {
  const nfd = value.normalize("NFD");
  const primary = foldPrimary(nfd.toLowerCase());
  const secondary = nfd.toLowerCase().normalize("NFC");
  // Lower case before upper case at the tertiary level ("am" < "Am"), as ICU's German collation does.
  const tertiary = [...value.normalize("NFC")]
    .map((ch) => (ch === ch.toLowerCase() ? "0" : "1"))
    .join("");
  return `${primary}\u0000${secondary}\u0000${tertiary}\u0000${value}`;
}

function foldPrimary(lowerNfd: string): string {
  return lowerNfd
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ß/g, "ss")
    .replace(/æ/g, "ae")
    .replace(/œ/g, "oe")
    .replace(/ø/g, "o")
    .replace(/ł/g, "l");
}

/** Numeric keys of different lengths ("2" < "10") sort by length first. */
export function numericKey(key: string): string {
  return key.padStart(8, "0");
}
