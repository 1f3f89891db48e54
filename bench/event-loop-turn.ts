/**
 * One turn of the event loop, awaited untimed before each timed request of an in-process bench.
 *
 * A request through the in-process Worker never leaves the microtask queue: the asset stand-ins
 * answer from memory and every fetch resolves as a promise, so a loop of such requests never lets
 * Node run the tasks V8 posts to the main thread. The one that matters most: an incremental
 * mark-compact's final pause, which V8 runs as a task when it can and otherwise forces from inside
 * running code (`--trace-gc`: "finalize incremental marking via stack guard"), that is inside
 * whichever request is running, charged to it. In a Worker isolate the runtime runs such tasks
 * between requests; here this turn does (`--trace-gc`: "via task").
 *
 * setImmediate, not setTimeout: the loop polls once without waiting, which runs the posted tasks;
 * a timer sleeps, hands the core to other processes, and the next request starts on cold caches.
 * Benches over HTTP (bench:serve, load) need none: every request goes through the loop.
 */
export const eventLoopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
