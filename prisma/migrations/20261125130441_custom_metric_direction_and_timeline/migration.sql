-- AlterTable
ALTER TABLE "metrics" ALTER COLUMN "better" DROP NOT NULL;

-- AlterTable
ALTER TABLE "results" ADD COLUMN     "timeline" JSONB;
