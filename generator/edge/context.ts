import type { Format } from "../contract/query.ts";
import type { AssetStore } from "./assets.ts";
import type { HeaderList, ResponseFactory } from "./responses.ts";

/** What serving one request needs besides its route: the request, the build's files and how to answer. */
export interface ServeContext {
  readonly request: Request;
  readonly origin: string;
  readonly store: AssetStore;
  readonly respond: ResponseFactory;
  /** The negotiated format (from `format=` or `Accept`). */
  readonly format: Format;
  /** `Vary: Accept` when the format came from the header. */
  readonly vary: HeaderList;
}
