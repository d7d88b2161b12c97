// npm run db:migration -- <name>: writes a new migration from the difference between the existing
// migrations and prisma/schema.prisma (the offline equivalent of `prisma migrate dev --create-only`).
import path from "node:path";
import { createMigration } from "../server/migrate/migrations";

const name = process.argv[2];
if (!name) {
  console.error("Usage: npm run db:migration -- <name>   (e.g. add_annotations)");
  process.exit(2);
}
const folder = await createMigration(name);
if (folder === null) {
  console.log("schema.prisma and the migrations agree: no migration written.");
} else {
  console.log(`Wrote ${path.relative(process.cwd(), path.join(folder, "migration.sql"))}`);
}
