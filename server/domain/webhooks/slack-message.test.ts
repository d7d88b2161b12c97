import { describe, expect, it } from "vitest";
import { slackMessageSchema } from "../../schemas/webhooks";
import { BASE_URL, DIGEST, INCIDENT, INVESTIGATING, LARGE, OPENED } from "./fixtures/messages";
import { SLACK_LIMITS, buildSlackMessage } from "./slack-message";

const textsOf = (message: ReturnType<typeof buildSlackMessage>) => message.blocks.map((block) => ("text" in block && block.text ? block.text.text : ""));

describe("buildSlackMessage", () => {
  it("an opened incident: header, summary, a field per change, context, and buttons to the incident and its comparison", () => {
    const message = buildSlackMessage(OPENED, BASE_URL);
    expect(slackMessageSchema.parse(message)).toEqual(message);
    expect(message.blocks.map((block) => block.type)).toEqual(["header", "section", "section", "context", "actions"]);
    const [header, summary, fields, context, actions] = message.blocks;
    expect(header).toEqual({ type: "header", text: { type: "plain_text", text: "🔴 Incident #3 opened · Listings API", emoji: true } });
    expect(summary).toEqual({
      type: "section",
      text: {
        type: "mrkdwn",
        text: [
          "*p99 of ListListings +91.3%* (33.5 ms → 64.1 ms, p &lt; 0.001)",
          "5 changes on 4 endpoints: ListListings, GetListing, GET /api/listings/:id, POST /orders",
          "First run: <https://bench.example.com/projects/listings/runs/run6|run \"nightly\" on main @ 9f1c2e7> · 2026-11-26 03:00 UTC",
          "State: *Open*",
        ].join("\n"),
      },
    });
    expect(fields).toMatchObject({ type: "section" });
    expect(fields?.type === "section" && fields.fields?.map((field) => field.text)).toEqual([
      "*ListListings p99*\n33.5 ms → 64.1 ms (+91.3%)",
      "*ListListings p95*\n30 ms → 50 ms (+66.7%)",
      "*GetListing mean*\n1.2 ms → 1.5 ms (+25.0%)",
      "*GET /api/listings/:id p95*\n12.3 ms → 15.2 ms (+23.6%)",
      "*POST /orders p95*\n80 ms → 92 ms (+15.0%)",
    ]);
    expect(context).toEqual({
      type: "context",
      elements: [{ type: "mrkdwn", text: "Benchtrack · Listings API · opened 2026-11-26 09:05 UTC by the change-point detector (v2)" }],
    });
    expect(actions).toEqual({
      type: "actions",
      elements: [
        { type: "button", text: { type: "plain_text", text: "Open incident #3", emoji: true }, url: "https://bench.example.com/projects/listings/incidents/3", action_id: "open-incident-3", style: "primary" },
        { type: "button", text: { type: "plain_text", text: "Compare before and after", emoji: true }, url: "https://bench.example.com/projects/listings/compare?base=run5,run4&head=run6", action_id: "compare-before-and-after" },
      ],
    });
    // The notification's fallback: one line, the same as the JSON body's text.
    expect(message.text).toMatch(/^Incident #3 opened in Listings API: p99 of ListListings \+91\.3%/);
  });

  it("a state change says who moved it from what to what, quotes the note and lists the links, escaped", () => {
    const message = buildSlackMessage(INVESTIGATING, BASE_URL);
    expect(slackMessageSchema.safeParse(message).success).toBe(true);
    const texts = textsOf(message);
    expect(texts[0]).toBe("🟡 Incident #3: Open → Investigating · Listings API");
    expect(texts[1]).toBe("*alice (admin session)* moved incident #3 from *Open* to *Investigating*.\n> Looking at the &lt;cache&gt; &amp; pool");
    expect(texts).toContain("Links: <https://github.com/acme/listings/pull/42>");
    expect(texts.join("\n")).toContain("State: *Investigating*");
    const context = message.blocks.find((block) => block.type === "context");
    expect(context?.type === "context" && context.elements[0]!.text).toBe(
      "Benchtrack · Listings API · opened 2026-11-26 09:05 UTC by the change-point detector (v2) · changed 2026-11-26 10:00 UTC",
    );
  });

  it("stays within Slack's limits with hostile sizes: long names, a long note, 60 changes", () => {
    const long = "x".repeat(400);
    const message = buildSlackMessage(
      {
        ...LARGE,
        event: "incident.state_changed",
        project: { slug: "p", name: `Project ${long}` },
        incident: { ...LARGE.incident, note: "n".repeat(5000), links: Array.from({ length: 100 }, (_, index) => `https://example.com/${index}/${long}`) },
        change: { from: "open", to: "accepted", by: `someone ${long}`, at: new Date("2026-11-26T10:00:00Z") },
      },
      BASE_URL,
    );
    const parsed = slackMessageSchema.safeParse(message);
    expect(parsed.error?.issues ?? []).toEqual([]);
    const header = message.blocks[0]!;
    expect(header.type === "header" && header.text.text.length).toBe(SLACK_LIMITS.headerText);
    expect(header.type === "header" && header.text.text.endsWith("…")).toBe(true);
    const fields = message.blocks.find((block) => block.type === "section" && block.fields !== undefined);
    expect(fields?.type === "section" && fields.fields?.length).toBe(10);
    expect(fields?.type === "section" && fields.fields?.at(-1)?.text).toBe("*51 more*\non the incident's page");
    for (const text of textsOf(message)) expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
  });

  it("never cuts an escape or a link in two when it truncates", () => {
    const message = buildSlackMessage({ ...INVESTIGATING, incident: { ...INVESTIGATING.incident, note: "&".repeat(1000) } }, BASE_URL);
    const moved = textsOf(message)[1]!;
    expect(moved.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    expect(moved.endsWith("&amp;…")).toBe(true);
  });

  it("a digest: header, the day's counts, a section per incident, the inbox button; at most 20 incidents listed", () => {
    const message = buildSlackMessage(DIGEST, BASE_URL);
    expect(slackMessageSchema.parse(message)).toEqual(message);
    expect(message.blocks.map((block) => block.type)).toEqual(["header", "section", "divider", "section", "section", "section", "context", "actions"]);
    const texts = textsOf(message);
    expect(texts[0]).toBe("📋 Daily incident digest · Listings API");
    expect(texts[1]).toBe("1 incident opened, 1 changed state in the last 24 h; 2 active (open or investigating).\n_2026-11-25 07:00 UTC → 2026-11-26 07:00 UTC_");
    expect(texts[3]).toBe(
      "🔴 *<https://bench.example.com/projects/listings/incidents/4|Incident #4>* · *Open* — p99 of ListListings +91.3% (33.5 ms → 64.1 ms, p &lt; 0.001)\n5 changes on 4 endpoints · Opened by the detector",
    );
    expect(texts[4]).toContain("✅ *<https://bench.example.com/projects/listings/incidents/2|Incident #2>* · *Fixed*");
    expect(texts[4]).toContain("Open → Investigating by bob; Investigating → Fixed by bob");
    expect(texts[5]).toContain("No change today");

    const many = buildSlackMessage({ ...DIGEST, incidents: Array.from({ length: 70 }, (_, index) => ({ ...INCIDENT, number: index + 1, changes: [] })) }, BASE_URL);
    expect(slackMessageSchema.safeParse(many).success).toBe(true);
    expect(many.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
    expect(many.blocks.filter((block) => block.type === "section")).toHaveLength(21);
    const context = many.blocks.find((block) => block.type === "context");
    expect(context?.type === "context" && context.elements[0]!.text).toBe("Benchtrack · Listings API · 50 more incidents on the incidents page");
  });
});
