/**
 * The case-insensitive key of `~*` filters (search/filter.ts caseFoldKey), without its case tables
 * for text of ASCII characters only: building those tables (a union of every case pair) is most
 * of what a new isolate's first folding costs, and most patterns' letters are ASCII. An ASCII
 * letter's key is its capital (the least member of its case class, as caseFoldKey takes: every
 * other member is a lower-case ASCII letter or beyond ASCII); any other ASCII character is its
 * own key. test/unit/regex-fold.test.ts checks it against caseFoldKey.
 */
import { caseFoldKey } from "../search/filter.ts";

export function foldKey(text: string): string {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return caseFoldKey(text);
  return text.toUpperCase();
}
