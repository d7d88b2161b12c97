// npm run seed:demo            (npm run seed:demo -- --remove takes it away again)
// Loads a demo history into the configured database (DATABASE_URL, or the embedded one in
// BENCHTRACK_DATA_DIR), migrating it first: projects `listings-demo` (k6 and Locust over HTTP) and
// `listings-grpc-demo` (ghz), six weeks of runs built from the real fixture files, with a visible
// slowdown on main; and `microbench-demo`, two weeks of real go test -bench nightlies
// (scripts/seed/go-bench) where a real change makes JoinInts slower. Everything it writes is marked as demo data. Running it again adds nothing.
// With the embedded database, stop `npm start` first: one process at a time may open it (the error
// says so); a PostgreSQL server has no such limit.
// With --remove it deletes the demo projects instead (only projects marked as demo data), each with
// everything of it, as DELETE /api/v1/projects/:project does, with an audit entry.
import { describeTarget, openDatabase, targetFromEnv } from "../server/db";
import { getEnv } from "../server/env";
import { migrateDatabase } from "../server/migrate/apply";
import { HTTP_PROJECT } from "./seed/plan";
import { removeDemo, seedDemo } from "./seed/seed-demo";

const target = targetFromEnv();
await migrateDatabase(target);
const database = await openDatabase(target);
const baseUrl = (getEnv().BENCHTRACK_PUBLIC_URL ?? `http://localhost:${getEnv().PORT}`).replace(/\/$/, "");
try {
  if (process.argv.includes("--remove")) {
    console.log(`Removing demo data from ${describeTarget(target)}…`);
    const removed = await removeDemo(database.prisma);
    for (const { slug, runs } of removed.removed) console.log(`  deleted demo project ${slug} (${runs} runs)`);
    for (const slug of removed.kept) console.log(`  left ${slug} alone: it is not demo data`);
    if (removed.removed.length === 0) console.log("  no demo project to remove");
  } else {
    await seed();
  }
} finally {
  await database.close();
}

async function seed(): Promise<void> {
  console.log(`Seeding demo data into ${describeTarget(target)}…`);
  const summary = await seedDemo(database.prisma, {
    baseUrl,
    onProgress: (done, total) => {
      if (done % 25 === 0 || done === total) console.log(`  ${done}/${total} runs`);
    },
  });
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const { plan } = summary;
  console.log(
    `Seeded ${summary.projects.length} demo projects (${summary.projects.join(", ")}), ${summary.runs} runs ` +
      `(${summary.created} new, ${summary.replayed} already there) from ${day(plan.firstDay)} to ${day(plan.lastDay)}; ` +
      `main slows down from ${plan.slowdownAt.toISOString().slice(0, 16).replace("T", " ")} UTC.`,
  );
  console.log(`Open ${baseUrl}/projects/${HTTP_PROJECT}`);
  for (const { projectSlug, baseRunIds, headRunIds } of summary.comparisons) {
    const query = `base=${baseRunIds.join(",")}&head=${headRunIds.join(",")}`;
    console.log(`  5 baseline vs 5 ManagedAsync rounds: ${baseUrl}/projects/${projectSlug}/compare?${query}`);
  }
}
