/** Anything started that must be stopped again: a server, a browser. */
export interface Stoppable {
  stop(): Promise<unknown>;
}

/**
 * Waits for every start, like `Promise.all`, but when one fails stops every one that started
 * (waiting for the others to settle first) and then rethrows the first failure. With
 * `Promise.all` a `beforeAll` rejects at the first failure before it assigns any of them, so its
 * `afterAll` cannot stop the servers that did start: they were left running.
 */
export async function startAll<const T extends readonly Stoppable[]>(starts: {
  readonly [K in keyof T]: Promise<T[K]>;
}): Promise<T> {
  const settled = await Promise.allSettled(starts as readonly Promise<Stoppable>[]);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  const started = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  if (failed === undefined) return started as unknown as T;
  const stops = await Promise.allSettled(started.map((s) => s.stop()));
  for (const stop of stops)
    if (stop.status === "rejected")
      console.error(
        "startAll: stopping what started after a failed start failed too:",
        stop.reason,
      );
  throw failed.reason;
}
