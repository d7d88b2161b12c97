import { observed } from "@/server/http/observe";
import { otherMethods } from "@/server/http/route";
import { checkLiveness } from "@/server/services/platform";

// Never cached, never prerendered: each call asks the process.
export const dynamic = "force-dynamic";

// GET /api/health — liveness: the process answers. No database call, no token, no rate limit (docs/operations.md).
export const GET = observed("/api/health", () => Response.json(checkLiveness(), { headers: { "Cache-Control": "no-store" } }));

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
