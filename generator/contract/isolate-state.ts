/**
 * What modules keep for an isolate's lifetime: memos, kept patterns, tables built on first use.
 * Each registers here, so that a benchmark can start a request as a new isolate's first, with all
 * of them empty (forgetIsolateState). The Worker never forgets: a new isolate starts empty.
 */
const forgetters: (() => void)[] = [];

/** Run `forget` whenever a benchmark asks for a fresh isolate's state. */
export function onForgetIsolateState(forget: () => void): void {
  forgetters.push(forget);
}

/** A Map kept for the isolate's lifetime, emptied by forgetIsolateState. */
export function isolateMap<K, V>(): Map<K, V> {
  const map = new Map<K, V>();
  onForgetIsolateState(() => map.clear());
  return map;
}

/** Empty every registered memo and lazily built table, as a new isolate has them. */
export function forgetIsolateState(): void {
  for (const forget of forgetters) forget();
}
