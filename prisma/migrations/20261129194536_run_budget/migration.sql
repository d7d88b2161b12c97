-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "budget" JSONB;
