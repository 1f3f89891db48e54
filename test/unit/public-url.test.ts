import { describe, expect, it } from "vitest";
import { publicUrl, withPublicUrls } from "../../generator/sources/public-url.ts";

describe("a source URL as published (manifest, build record, messages)", () => {
  it.each([
    ["https://host/file.csv", "https://host/file.csv"],
    ["https://user:secret@host/file.csv", "https://host/file.csv"],
    ["https://token@host:8443/a/b.zip", "https://host:8443/a/b.zip"],
    ["https://host/file.csv?access_token=abc", "https://host/file.csv"],
    ["https://host/file.csv?access_token=abc&X-Amz-Signature=def#part", "https://host/file.csv"],
    // the publishers' own query keys say which file was read, and stay
    [
      "https://www.agvchapp.bfs.admin.ch/api/communes/snapshot?date=22-11-2026",
      "https://www.agvchapp.bfs.admin.ch/api/communes/snapshot?date=22-11-2026",
    ],
    [
      "https://www.destatis.de/x/GV100AD3011.zip?__blob=publicationFile&v=3&sig=s",
      "https://www.destatis.de/x/GV100AD3011.zip?__blob=publicationFile",
    ],
    ["https://host/f?token=a&date=01-01-2026", "https://host/f?date=01-01-2026"],
    ["https://host/f?%64ate=01-01-2026", "https://host/f?%64ate=01-01-2026"],
    ["not a url?token=x", "not a url"],
  ])("%s → %s", (url, expected) => {
    expect(publicUrl(url)).toBe(expected);
  });

  it("every URL a message quotes loses its credentials, the text around it stays", () => {
    expect(
      withPublicUrls(
        "Bad response for http://u:p@127.0.0.1:8/a.csv?access_token=t (404): Not Found, see https://x/y?k=v.",
      ),
    ).toBe("Bad response for http://127.0.0.1:8/a.csv (404): Not Found, see https://x/y.");
  });
});
