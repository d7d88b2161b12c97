import { readFileSync } from "node:fs";
import path from "node:path";
import { getDb } from "@/server/db";
import { call } from "@/server/testing/rest-client";
import type { CallOptions } from "@/server/testing/rest-client";
import { POST as uploadRun } from "./route";

// The upload route tests' helpers: the parsers' real tool outputs (server/domain/parsers/fixtures), an
// upload through the route with its JSON answer, and a project's run count.

const FIXTURES = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures");
export const fixture = (relative: string) => readFileSync(path.join(FIXTURES, relative));
export const fixtureText = (relative: string) => readFileSync(path.join(FIXTURES, relative), "utf8");

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, as the tests read it (eslint.config.js allows any in *.test.ts)
export type Json = Record<string, any>;

export async function upload(slug: string, body: BodyInit, options: CallOptions = {}) {
  const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
    method: "POST",
    body,
    ...options,
  });
  return { status: response.status, json: (await response.json()) as Json };
}

export async function runCount(slug: string): Promise<number> {
  const db = await getDb();
  return db.run.count({ where: { project: { slug } } });
}
