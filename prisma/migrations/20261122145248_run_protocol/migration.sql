-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "protocol" TEXT;
