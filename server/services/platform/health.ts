import packageJson from "../../../package.json" with { type: "json" };

/** Liveness (GET /api/health): the process answers. Nothing is asked of the database or the queue. */
export interface Liveness {
  status: "ok";
  /** Benchtrack's version (package.json). */
  version: string;
  /** Seconds since this process started. */
  uptimeSeconds: number;
}

export function checkLiveness(): Liveness {
  return { status: "ok", version: packageJson.version, uptimeSeconds: Math.round(process.uptime()) };
}
