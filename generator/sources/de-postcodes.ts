import { parseCsv } from "./csv.ts";
import { SourceError } from "./errors.ts";
import { FIELD_LIMIT, LIST_FIELD_LIMIT } from "./field-limits.ts";
import { decodeUtf8 } from "./text.ts";

/** One row of Open Postal Codes' German `post_code.csv`: a postal code and a place it serves. */
export interface PostCodeRow {
  readonly postalCode: string;
  /** The place as the source names it; a trailing ` u.a.` ("and others") marks a shared code. */
  readonly city: string;
  readonly state: string;
  readonly county: string;
}

export const POST_CODE_HEADER = [
  "code",
  "city",
  "country",
  "state",
  "county",
  "time_zone",
  "is_primary_location",
  "location_rank",
  "postal_code_rank",
  "source",
  "evidence_count",
] as const;

/** `city` lists every place a postal code serves (up to 249 characters today). */
const CITY_IS_A_LIST = [FIELD_LIMIT, LIST_FIELD_LIMIT];

/** Reads `code,city,country,state,county,…` (Open Postal Codes, DE). */
export async function readPostCodes(bytes: Uint8Array, file: string): Promise<PostCodeRow[]> {
  const options = { header: POST_CODE_HEADER, limits: CITY_IS_A_LIST };
  return parseCsv(decodeUtf8(bytes, file), file, options, (row, line) => {
    const [postalCode = "", city = "", country = "", state = "", county = ""] = row.map((field) =>
      field.normalize("NFC").trim(),
    );
    if (!/^[0-9]{5}$/.test(postalCode))
      throw new SourceError(file, line, `code '${postalCode}' is not five digits`);
    if (country !== "DE") throw new SourceError(file, line, `country '${country}' is not DE`);
    if (city === "") throw new SourceError(file, line, "city is empty");
    if (state === "") throw new SourceError(file, line, "state is empty");
    return { postalCode, city, state, county };
  });
}
