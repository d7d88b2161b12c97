-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "verdict" TEXT,
ADD COLUMN     "verdict_reasons" TEXT[] DEFAULT ARRAY[]::TEXT[];
