/**
 * A new isolate's startup: before its first request, the Worker answers one request of every kind
 * on a small build held in the bundle (warm-up-files.ts: the embedded data cut to Berlin's postal
 * codes 1011x, 204 streets). A new isolate has the script parsed but none of its functions
 * compiled: whatever code the first request runs is compiled lazily by that request and runs in
 * V8's slowest tier. Cloudflare runs a module's top level at startup (limited to 1 s, apart from a
 * request's CPU), so the compiling is moved there: measured on the national build (docs/SEARCH.md,
 * "A fresh isolate's first request, with the startup warm-up"), a first FullTextSearch costs a
 * third to a fifth of what it did.
 *
 * The warm-up has its own handler and asset store, so it leaves no file and nothing decoded
 * behind; the memos of pure functions it filled are emptied (forgetIsolateState). It needs no I/O:
 * its files are in memory, so it settles within the module's evaluation. It never fails the
 * Worker: a request that throws is reported once and the rest still run.
 */
import { forgetIsolateState } from "../contract/isolate-state.ts";
import { warmTyposOf } from "../contract/suggest/distance.ts";
import { Alphabet } from "../contract/suggest/trie.ts";
import { urlOf, type Assets } from "./assets.ts";
import { createHandler } from "./handler.ts";
import type { MakeResponse } from "./responses.ts";
import { WARM_UP_FILES } from "./warm-up-files.ts";
import { KERNEL_ROUNDS, warmKernels } from "./warm-kernels.ts";
import { primeWalkCallbacks, warmSuggestKernels } from "./warm-suggest.ts";

/** A warm-up request: its path and query, and its headers when it has any. */
type WarmUpRequest = readonly [string, Record<string, string>?];

/** Origin of the warm-up's requests: never a real host. */
export const ORIGIN = "https://warm-up.invalid";
const CSV = { accept: "text/csv" };

/**
 * The requests, one per kind of work the Worker does: street search's plans (a word, words and a
 * place, a prefix, a phrase, a negation, an `or`; a name beside places, a pattern, places alone,
 * a deep page), suggestions and the address check, patterns over a resource's values (strings
 * alone, and ones its engine compiles and runs: classes, counted repeats, alternations), a packed
 * page, both formats, a 400 and a 404.
 */
export const WARM_UP_REQUESTS: readonly WarmUpRequest[] = [
  ["/de/FullTextSearch?searchTerm=Friedrichstraße"],
  ["/de/FullTextSearch?searchTerm=Straße+Berlin&pageSize=10"],
  ["/de/FullTextSearch?searchTerm=10117+Schützenstraße"],
  ["/de/FullTextSearch?searchTerm=berlin+fried&lastWordPrefix=true"],
  ['/de/FullTextSearch?searchTerm="Unter+den+Linden"'],
  ["/de/FullTextSearch?searchTerm=straße+-platz&page=2&pageSize=5"],
  ["/de/FullTextSearch?searchTerm=platz+or+allee", CSV],
  ["/de/Streets?name=straße&locality=Berlin"],
  ["/de/Streets?name=platz&postalCode=101"],
  ["/de/Streets?name=^Fried&pageSize=10"],
  ["/de/Streets?name=e$&page=3&pageSize=10"],
  ["/de/Streets?name=Friedrichstraße&postalCode=10117&locality=^Berlin$"],
  ["/de/Streets?locality=Berlin&page=2&pageSize=10"],
  ["/de/Streets?postalCode=^1011", CSV],
  ["/de/Suggestions?searchTerm=Schützenstrase+10117"],
  ["/de/Suggestions?searchTerm=Friedrichstr"],
  ["/de/Suggestions?searchTerm=Schitzenstrsse+10117"],
  ["/de/Suggestions?searchTerm=Tormstrase+9"],
  // A letter moved before and after a transliteration's pair (`ue` of ü): the walk's rarest cells,
  // which deoptimised its code in most costly first requests while the warm-up never reached them.
  ["/de/Suggestions?searchTerm=Schtuezenstraße"],
  ["/de/Suggestions?searchTerm=Scuehtzenstraße"],
  // Names with a word that tolerates no typo (`Am`, `An der`): found with typos, they take the
  // word-by-word check (contract/suggest/distance.ts), which the names above never need.
  ["/de/Suggestions?searchTerm=Am+Kupfergarben+10117"],
  ["/de/Suggestions?searchTerm=An+der+Kolonade"],
  ["/de/Suggestions?searchTerm=Unter+den+Linen+1"],
  ["/de/Suggestions?searchTerm=Am+Festugsgr"],
  ["/de/Suggestions?searchTerm=An+der+Kieler+Bücke"],
  // Only leading words, being typed: every name that starts with them.
  ["/de/Suggestions?searchTerm=in+den"],
  ["/de/AddressCheck?postalCode=10115&locality=Berlin&street=Schützenstraße"],
  // Wrong on every count: another postal code, a typo in the locality and in the street.
  ["/de/AddressCheck?postalCode=10119&locality=Berln&street=An+der+Kolonade"],
  ["/de/Localities?name=^Ber"],
  ["/de/Localities?postalCode=10115"],
  ["/de/Localities?name=(ae|oe|ue|ß){2,}|[a-zäöü]%2B [a-z]%2B$"],
  ["/de/Localities?name=^(\\w%2B[\\s-]?){1,3}[^\\d ]{2,}$&pageSize=5"],
  ["/de/Localities?name=.*[aeiou].*[^\\w\\s]|(.)(.)(.).*e.*r", CSV],
  ["/de/Localities?postalCode=^1[0-9]{2}1(5|7)$"],
  ["/de/Localities?name=."],
  ["/de/FederalStates", CSV],
  ["/de/Streets?name=[", {}],
  ["/de/Nowhere"],
];

/**
 * Rounds of the suggestion requests after the first. A suggestion walks tries and checks words in
 * loops that V8 moves to its faster tiers only after they have run a while, and on the small
 * build one round runs them too little: a national first suggestion then ran several times slower
 * than warm. Eight more rounds (about 40 ms of startup) took a sample of 60 national first
 * suggestions from p50 5.7 to 4.8 ms and 13 to 4 over 10 ms; twenty did no better
 * (docs/SUGGESTIONS.md).
 */
export const SUGGESTION_ROUNDS = 8;

/**
 * How many times the whole list runs (the suggestion rounds between the first and the second).
 * Cloudflare compiles on the request's thread (bench/cloudflare-v8.ts): a function whose tier-up
 * budget runs out during a warm-up request is compiled when it is next called, and after a single
 * pass that was the first real request, for all of them (`ResponseFactory.headers` in 60 of 60
 * first requests, the read budget's `fits` in 42). A second pass compiles them at startup. Three,
 * four, six and ten passes compiled no less inside first requests (each pass leaves the functions
 * it made hot to the next call; ten brought TurboFan compiles of `tail` into 19 of 60). SEARCH.md
 * has the figures.
 */
export const WARM_UP_ROUNDS = 2;

/**
 * The requests once more, last, each on a page of one row (`pageSize=1`): a function that the
 * rounds and the loops before made hot is compiled when it is next called, and without this pass
 * that was the first real request (median 1.10 ms of compiling inside the 60 costliest national
 * first requests, `bench:fresh --deopts`). On a page of one, each request calls what a real one
 * does with little else to make hot. With it and the longer loops of warm-kernels.ts the median
 * was 0.55 ms, and 0.10 ms once those loops also ran the counted plan beside a name with per-place
 * counts. docs/SEARCH.md has the figures.
 */
export const SETTLING_REQUESTS: readonly WarmUpRequest[] = WARM_UP_REQUESTS.map(
  ([target, headers]): WarmUpRequest => {
    const one = target.includes("pageSize=")
      ? target.replace(/pageSize=\d+/, "pageSize=1")
      : `${target}${target.includes("?") ? "&" : "?"}pageSize=1`;
    return headers === undefined ? [one] : [one, headers];
  },
);

/** Rounds of distance.ts warmTyposOf's six cases after the requests. */
export const TYPOS_ROUNDS = 300;

/** The warm-up's suggestion requests, run SUGGESTION_ROUNDS more times after the rest. */
export const WARM_UP_SUGGESTIONS = WARM_UP_REQUESTS.filter(([target]) =>
  target.includes("/Suggestions?"),
);

/**
 * Runs the warm-up requests: their statuses (0: the request threw; the first error is logged),
 * WARM_UP_REQUESTS' in order, then the suggestion rounds', then WARM_UP_REQUESTS' again for each
 * further round; then the word check's own rounds (TYPOS_ROUNDS) and the long loops
 * (warm-kernels.ts, warm-suggest.ts), whose failure is logged and counted as one more status 0; then
 * SETTLING_REQUESTS'.
 */
export async function warmUp(
  files: Readonly<Record<string, string>> = WARM_UP_FILES,
): Promise<number[]> {
  const handler = createHandler(memoryAssets(files), standIn);
  const statuses: number[] = [];
  const rounds = Array.from({ length: SUGGESTION_ROUNDS }, () => WARM_UP_SUGGESTIONS).flat();
  const again = Array.from({ length: WARM_UP_ROUNDS - 1 }, () => WARM_UP_REQUESTS).flat();
  const answer = async (requests: readonly WarmUpRequest[]) => {
    for (const [target, headers] of requests) {
      try {
        const request = new Request(`${ORIGIN}${target}`, { headers: headers ?? {} });
        const response = await handler(request);
        await response.arrayBuffer();
        statuses.push(response.status);
      } catch (error) {
        if (!statuses.includes(0)) console.error(`warm-up ${target}: ${String(error)}`);
        statuses.push(0);
      }
    }
  };
  primeWalkCallbacks();
  await answer([...WARM_UP_REQUESTS, ...rounds, ...again]);
  const alphabet = Alphabet.of([]);
  warmTyposOf(TYPOS_ROUNDS, (skeleton) => alphabet.encode(skeleton));
  try {
    const assets = memoryAssets(files);
    await warmKernels(assets, ORIGIN, "de");
    await warmSuggestKernels(assets, ORIGIN, "de", KERNEL_ROUNDS);
  } catch (error) {
    console.error(`warm-up kernels: ${String(error)}`);
    statuses.push(0);
  }
  await answer(SETTLING_REQUESTS);
  forgetIsolateState();
  const failed = failedWarmUps(statuses);
  if (failed > 0) console.error(`warm-up: ${failed} of ${statuses.length} requests failed`);
  return statuses;
}

/** How many warm-up requests failed: threw (status 0) or answered a 5xx. */
export const failedWarmUps = (statuses: readonly number[]): number =>
  statuses.filter((status) => status === 0 || status >= 500).length;

/** The static-assets binding over files in memory (base64, by path): what the warm-up reads. */
export function memoryAssets(files: Readonly<Record<string, string>>): Assets {
  return {
    fetch: async (input) => {
      const data = files[decodeURIComponent(new URL(urlOf(input)).pathname)];
      return data === undefined ? standIn(null, { status: 404 }) : standIn(bytesOf(data), {});
    },
  };
}

/**
 * A response as the Worker reads one (status, headers, the whole body), made without the
 * runtime's Response: workerd refuses one with a body outside a request.
 */
const standIn: MakeResponse = (body, init) => {
  const bytes = body instanceof Uint8Array ? body : new Uint8Array();
  const status = init.status ?? 200;
  const text = async () => new TextDecoder().decode(bytes);
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: new Headers(init.headers),
    body: null,
    arrayBuffer: async () => bytes.slice().buffer,
    bytes: async () => bytes.slice(),
    text,
    json: async () => JSON.parse(await text()) as unknown,
  } as unknown as Response;
};

function bytesOf(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
