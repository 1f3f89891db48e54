/**
 * V8 as Cloudflare's production runtime configures it, for the benches that time a Worker's
 * first request (bench:fresh's children, bench:workerd's measured process).
 *
 * workerd (the open-source runtime) leaves V8's defaults, which compile optimised code on
 * background threads: a request that makes a function hot goes on in a lower tier while another
 * thread compiles. Cloudflare's own embedder turns all of that off: workerd's
 * src/workerd/jsg/setup.h (the comment on `codeMap`, May 2026) lists `--concurrent_recompilation`,
 * `--concurrent_sparkplug`, `--maglev_build_code_on_background`,
 * `--maglev_deopt_data_on_background` and four flags that are off by default, and says "Our
 * internal embedder disables all of the above, so `jitCodeEvent` only ever fires on the main
 * thread". So on Cloudflare every Sparkplug, Maglev and TurboFan compile a request triggers runs
 * on the request's thread and is billed as its CPU. workerd also starts V8 with
 * `--noincremental-marking` (setup.c++).
 *
 * Measured on the 60 first requests of the four mixes (2026-11-29, national build): bench:fresh,
 * two runs a side alternating, load 7-9, p50 6.3 ms with V8's defaults and 9.9 ms with these
 * flags (per request geometric mean 1.6x); bench:workerd, one run each at load 1-10, p50 19.6 ms and 23.9-25.0.
 */
export const CLOUDFLARE_V8_FLAGS: readonly string[] = [
  "--no-concurrent-recompilation",
  "--no-concurrent-sparkplug",
  "--no-maglev-build-code-on-background",
  "--no-maglev-deopt-data-on-background",
  "--no-incremental-marking",
];
