import { describe, expect, it } from "vitest";
import { closeness, closestMatches, officialShortName } from "../../generator/model/de-names.ts";

/** Open Postal Codes' (OSM) spellings against GV100AD's official names. */
describe("place and county names", () => {
  it.each([
    ["Dresden", "Dresden, Stadt", 1],
    ["Gars a. Inn", "Gars a.Inn, M", 1],
    ["Lübbenau/ Spreewald", "Lübbenau/Spreewald / Lubnjow/Błota, Stadt", 2],
    ["Bautzen", "Bautzen / Budyšin, Stadt, Hochschulstadt / Wysokošulske město", 2],
    ["Halle/ Saale", "Halle (Saale), Stadt", 3],
    ["Mühldorf am Inn", "Mühldorf a.Inn", 3],
    ["Weiden in der OPf.", "Weiden i.d.OPf.", 3],
    ["Sankt Wendel", "St. Wendel", 3],
    ["Forst/ Lausitz", "Forst (Lausitz)/Baršć (Łužyca), Stadt", 3],
    ["Bergen/ Rügen", "Bergen auf Rügen, Stadt", 3],
    ["Frankfurt", "Frankfurt (Oder), Stadt", 4],
    ["Frankfurt", "Frankfurt am Main, Stadt", 4],
    ["Wentorf", "Wentorf bei Hamburg", 4],
    ["Röttenbach bei Erlangen", "Röttenbach", 4],
    // No match: a qualifier on both sides that differs, a shared qualifier, an abbreviation alone, another place.
    ["Berka/ Werra", "Berka v. d. Hainich", 0],
    ["Auerbach/Vogtl.", "Falkenstein/Vogtl., Stadt", 0],
    ["u.a.", "Ummanz", 0],
    ["Frankfurt", "Frankenthal (Pfalz), kreisfreie Stadt", 0],
    ["Gladbach", "Neuwied, Stadt", 0],
  ] as const)("%s ~ %s: closeness %i", (source, official, expected) => {
    expect(closeness(source, official)).toBe(expected);
  });

  it("takes the closest candidates only, several when they cannot be told apart", () => {
    const names = (list: string[]) => list.join(" | ");
    expect(
      names(closestMatches("Neukirch/Lausitz", ["Neukirch", "Neukirch/Lausitz"], (n) => n)),
    ).toBe("Neukirch/Lausitz");
    expect(
      names(
        closestMatches("Wentorf", ["Wentorf bei Hamburg", "Wentorf (Amt Sandesneben)"], (n) => n),
      ),
    ).toBe("Wentorf bei Hamburg | Wentorf (Amt Sandesneben)");
    expect(
      names(closestMatches("Garding", ["Garding, Kirchspiel", "Garding, Stadt"], (n) => n)),
    ).toBe("Garding, Kirchspiel | Garding, Stadt");
    expect(closestMatches("Gladbach", ["Neuwied, Stadt", "Rengsdorf"], (n) => n)).toEqual([]);
  });

  it("drops GV100AD's suffix from an official name", () => {
    expect(
      [
        "Frankfurt (Oder), Stadt",
        "Halle (Saale), Stadt",
        "Hamburg, Freie und Hansestadt",
        "Neuwied",
      ].map(officialShortName),
    ).toEqual(["Frankfurt (Oder)", "Halle (Saale)", "Hamburg", "Neuwied"]);
  });
});
