-- CreateEnum
CREATE TYPE "WebhookFormat" AS ENUM ('json', 'slack', 'teams');

-- CreateEnum
CREATE TYPE "WebhookDigest" AS ENUM ('off', 'daily');

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "webhook_digest" "WebhookDigest" NOT NULL DEFAULT 'off',
ADD COLUMN     "webhook_format" "WebhookFormat" NOT NULL DEFAULT 'json',
ADD COLUMN     "webhook_secret" TEXT;

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "digest_day" TEXT,
ADD COLUMN     "event" TEXT NOT NULL DEFAULT 'regression.opened',
ADD COLUMN     "format" "WebhookFormat" NOT NULL DEFAULT 'json',
ADD COLUMN     "incident_id" TEXT;

-- Calls made before incidents were about one regression, in JSON. New calls always say what they are.
ALTER TABLE "webhook_deliveries" ALTER COLUMN "event" DROP DEFAULT,
ALTER COLUMN "format" DROP DEFAULT;

-- A project that already has a webhook gets its signing secret now (244 random bits from two v4 UUIDs,
-- where new ones are made by the app from 32 random bytes). Shown, and rotatable, on the Settings page.
UPDATE "projects"
SET "webhook_secret" = 'whsec_' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')
WHERE "webhook_url" IS NOT NULL AND "webhook_secret" IS NULL;

-- CreateIndex
CREATE INDEX "webhook_deliveries_incident_id_idx" ON "webhook_deliveries"("incident_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_project_id_digest_day_key" ON "webhook_deliveries"("project_id", "digest_day");

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE SET NULL ON UPDATE CASCADE;
