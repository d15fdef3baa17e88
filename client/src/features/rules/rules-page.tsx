import { SignedIn } from "../../components/signed-in.tsx";

export default function RulesPage() {
  return (
    <SignedIn>
      <h1>Detection Rules (Standard + Advanced)</h1>
    </SignedIn>
  );
}
