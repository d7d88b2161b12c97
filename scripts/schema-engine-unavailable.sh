#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded offline. Migrations go
# through the WASM engine instead (scripts/db-migration.ts, scripts/db-migrate.ts).
echo "The native Prisma schema engine is not used here: run npm run db:migration / db:migrate." >&2
exit 1
