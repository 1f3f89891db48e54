/**
 * The longest value each query parameter takes, in characters (Unicode code points). A longer
 * value is a 400 before any other work: no search, regular expression or log line ever sees it.
 * No real value comes near the limits (the served locality and street names of every source read
 * here have under 100 characters; a page number needs 10 digits), and they bound every request's work.
 */
export const DEFAULT_MAX_VALUE_LENGTH = 200;

/** Parameters with a limit of their own; every other parameter takes DEFAULT_MAX_VALUE_LENGTH. */
const MAX_VALUE_LENGTHS: Readonly<Record<string, number>> = { page: 20, pageSize: 20 };

export function maxValueLength(name: string): number {
  return Object.hasOwn(MAX_VALUE_LENGTHS, name)
    ? (MAX_VALUE_LENGTHS[name] ?? DEFAULT_MAX_VALUE_LENGTH)
    : DEFAULT_MAX_VALUE_LENGTH;
}

/** Whether a value has more than `max` code points; reads at most about 2·max UTF-16 units of it, however long it is. */
export function exceedsLength(value: string, max: number): boolean {
  if (value.length <= max) return false;
  if (value.length > 2 * max) return true;
  let codePoints = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      i + 1 < value.length &&
      (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    )
      i++;
    if (++codePoints > max) return true;
  }
  return false;
}

/** The error for a value over its limit; it never quotes the value (which may be megabytes). */
export function tooLongMessage(name: string, max: number): string {
  return `The value of ${name} is longer than ${max} characters, the most it takes.`;
}
