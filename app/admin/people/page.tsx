import type { Metadata } from "next";
import { PeopleView } from "@/components/people/people-view";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "People" };
export const dynamic = "force-dynamic";

// /admin/people — the server's people (server admins only; the list answers who may see it).
export default function PeoplePage() {
  return (
    <div>
      <PageHeader title="People" subtitle="Everyone who signed in with the identity provider (server admins only)." />
      <PeopleView />
    </div>
  );
}
