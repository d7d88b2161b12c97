import { describe, expect, it } from "vitest";
import { teamsMessageSchema } from "../../schemas/webhooks";
import { BASE_URL, DIGEST, INVESTIGATING, LARGE, OPENED } from "./fixtures/messages";
import { buildTeamsMessage } from "./teams-message";

const cardOf = (message: ReturnType<typeof buildTeamsMessage>) => message.attachments[0]!.content;

describe("buildTeamsMessage", () => {
  it("wraps an Adaptive Card 1.4 in a message, as a Teams webhook takes it, with buttons to the incident", () => {
    const message = buildTeamsMessage(OPENED, BASE_URL);
    expect(teamsMessageSchema.parse(message)).toEqual(message);
    expect(message.type).toBe("message");
    expect(message.attachments[0]).toMatchObject({ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null });
    const card = cardOf(message);
    expect(card).toMatchObject({ type: "AdaptiveCard", version: "1.4", fallbackText: "Incident #3 opened · Listings API", msteams: { width: "Full" } });
    expect(card.body[0]).toEqual({ type: "TextBlock", text: "Incident #3 opened · Listings API", wrap: true, size: "Large", weight: "Bolder", color: "Attention" });
    expect(card.body[1]).toEqual({ type: "TextBlock", text: "**p99 of ListListings +91.3%** (33.5 ms → 64.1 ms, p < 0.001)", wrap: true, size: "Medium" });
    const facts = card.body.find((element) => element.type === "FactSet");
    expect(facts?.type === "FactSet" && facts.facts.slice(0, 4)).toEqual([
      { title: "State", value: "Open" },
      { title: "Changes", value: "5 changes on 4 endpoints: ListListings, GetListing, GET /api/listings/:id, POST /orders" },
      { title: "First run", value: "[run \"nightly\" on main @ 9f1c2e7](https://bench.example.com/projects/listings/runs/run6) · 2026-11-26 03:00 UTC" },
      { title: "ListListings p99", value: "33.5 ms → 64.1 ms (+91.3%)" },
    ]);
    expect(card.actions).toEqual([
      { type: "Action.OpenUrl", title: "Open incident #3", url: "https://bench.example.com/projects/listings/incidents/3" },
      { type: "Action.OpenUrl", title: "Compare before and after", url: "https://bench.example.com/projects/listings/compare?base=run5,run4&head=run6" },
    ]);
  });

  it("a state change names who and the note, escaping the Markdown Teams would read in them", () => {
    const message = buildTeamsMessage(
      { ...INVESTIGATING, change: { ...INVESTIGATING.change, by: "eve_admin [token]" }, incident: { ...INVESTIGATING.incident, note: "see *this*" } },
      BASE_URL,
    );
    expect(teamsMessageSchema.safeParse(message).success).toBe(true);
    const texts = cardOf(message).body.flatMap((element) => (element.type === "TextBlock" ? [element.text] : []));
    expect(texts[0]).toBe("Incident #3: Open → Investigating · Listings API");
    expect(texts[1]).toBe("**eve\\_admin \\[token\\]** moved incident #3 from **Open** to **Investigating**.");
    expect(texts[2]).toBe("_see \\*this\\*_");
    const facts = cardOf(message).body.find((element) => element.type === "FactSet");
    expect(facts?.type === "FactSet" && facts.facts.at(-1)).toEqual({ title: "Links", value: "[github.com/acme/listings/pull/42](https://github.com/acme/listings/pull/42)" });
  });

  it("lists at most 10 changes as facts, then how many more", () => {
    const card = cardOf(buildTeamsMessage(LARGE, BASE_URL));
    const facts = card.body.find((element) => element.type === "FactSet");
    if (facts?.type !== "FactSet") throw new Error("a FactSet");
    expect(facts.facts).toHaveLength(3 + 10 + 1);
    expect(facts.facts.at(-1)).toEqual({ title: "More", value: "50 more on the incident's page" });
    expect(JSON.stringify(buildTeamsMessage(LARGE, BASE_URL)).length).toBeLessThan(28_000);
  });

  it("a digest: the day's counts, a container per incident, a button to the incidents", () => {
    const message = buildTeamsMessage(DIGEST, BASE_URL);
    expect(teamsMessageSchema.parse(message)).toEqual(message);
    const card = cardOf(message);
    expect(card.body.filter((element) => element.type === "Container")).toHaveLength(3);
    expect(card.body[1]).toMatchObject({ text: "1 incident opened, 1 changed state in the last 24 h; 2 active (open or investigating)." });
    expect(card.actions).toEqual([{ type: "Action.OpenUrl", title: "Open the incidents", url: "https://bench.example.com/projects/listings/incidents" }]);
  });
});
