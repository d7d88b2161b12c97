import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What the log line of the request being served says about its caller, filled in where the caller
 * becomes known (server/http/route.ts after admission, server/api/trpc.ts in its procedures): the
 * kind only, never the credential. The request's wrapper (server/http/observe.ts) opens the context
 * and writes the line when the answer is ready.
 */
export type CallerKind = "admin" | "project-token" | "read-token" | "session" | "user" | "share" | "metrics-token" | "anonymous";

export interface RequestContext {
  requestId: string;
  callerKind: CallerKind;
}

/** On globalThis: Next's chunks (routes, the tRPC handler) must see the one store. */
const globalForContext = globalThis as unknown as { benchtrackRequestContext?: AsyncLocalStorage<RequestContext> };
const storage = (globalForContext.benchtrackRequestContext ??= new AsyncLocalStorage<RequestContext>());

/** Runs `work` as the request `context` (its caller's kind is noted into it as it becomes known). */
export function runInRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/** The request being served, or undefined outside one (a job, a script). */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/**
 * Notes the caller of the request being served by its principal's kind. `byBearer`: the credential
 * came as an `Authorization` header (else the admin or the read token's holder is a signed-in browser:
 * "session").
 */
export function noteCaller(principal: { kind: "admin" | "project-token" | "reader" | "user" | "share" | "anonymous" }, byBearer: boolean): void {
  const context = storage.getStore();
  if (!context) return;
  context.callerKind =
    principal.kind === "admin"
      ? byBearer
        ? "admin"
        : "session"
      : principal.kind === "reader"
        ? byBearer
          ? "read-token"
          : "session"
        : principal.kind;
}

/** Notes the caller's kind as it is (the metrics route, which knows its own). */
export function noteCallerKind(kind: CallerKind): void {
  const context = storage.getStore();
  if (context) context.callerKind = kind;
}
