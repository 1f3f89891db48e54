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

/** `compute` kept per key for the isolate's lifetime, at most `limit` keys (then emptied and begun again). */
export function isolateMemo<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const cache = isolateMap<K, V>();
  return (key: K): V => {
    if (cache.has(key)) return cache.get(key) as V;
    const value = compute(key);
    if (cache.size >= limit) cache.clear();
    cache.set(key, value);
    return value;
  };
}

/** Empty every registered memo and lazily built table, as a new isolate has them. */
export function forgetIsolateState(): void {
  for (const forget of forgetters) forget();
}
