-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "digest_until" TIMESTAMPTZ(3);
