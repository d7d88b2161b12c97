import { getDb } from "@/server/db";
import { shortLinkTarget } from "@/server/services/sharing";

// GET /s/:id — a stored share link's short address (what PR comments and the Share button hand out): a
// redirect to the page it opens, carrying it; or to the page that says it expired, was revoked or is not
// valid. Open on every server (proxy.ts lets it through): the page it leads to is where access is checked.
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const target = await shortLinkTarget(await getDb(), id, new URL(request.url).searchParams);
  return new Response(null, { status: 303, headers: { location: target, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
}
