// wrangler bundles the project's `_headers` as a text module (see `rules` in wrangler.jsonc).
declare module "*/_headers" {
  const text: string;
  export default text;
}
