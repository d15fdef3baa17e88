import { SignedIn } from "../../components/signed-in.tsx";

export default function BlockListsPage() {
  return (
    <SignedIn>
      <h1>Blocklists</h1>
    </SignedIn>
  );
}
