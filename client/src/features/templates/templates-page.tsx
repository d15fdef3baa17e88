import { SignedIn } from "../../components/signed-in.tsx";

export default function TemplatesPage() {
  return (
    <SignedIn>
      <h1>Templates</h1>
    </SignedIn>
  );
}
