-- CreateEnum
CREATE TYPE "ProjectVisibility" AS ENUM ('public', 'private');

-- CreateEnum
CREATE TYPE "ProjectRole" AS ENUM ('viewer', 'triager', 'maintainer');

-- CreateEnum
CREATE TYPE "MemberKind" AS ENUM ('email', 'group');

-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "created_by" TEXT,
ADD COLUMN     "expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "scopes" TEXT[] DEFAULT ARRAY['upload']::TEXT[];

-- AlterTable
ALTER TABLE "audit_entries" ADD COLUMN     "actor_user_id" TEXT;

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "visibility" "ProjectVisibility";

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT,
    "name" TEXT,
    "groups" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "server_admin" BOOLEAN NOT NULL DEFAULT false,
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" TIMESTAMPTZ(3),

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_members" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "kind" "MemberKind" NOT NULL,
    "subject" TEXT NOT NULL,
    "role" "ProjectRole" NOT NULL,
    "granted_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "project_members_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "users_email_idx" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "users_issuer_subject_key" ON "users"("issuer", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "project_members_project_id_kind_subject_key" ON "project_members"("project_id", "kind", "subject");

-- AddForeignKey
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Tokens made before scopes existed could upload, read every project of a private server and triage.
-- They keep what they could do on their own project (docs/access.md, "Tokens"). New ones upload only.
UPDATE "api_tokens" SET "scopes" = ARRAY['upload', 'read', 'triage']::TEXT[];
