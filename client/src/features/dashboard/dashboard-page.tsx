import { SignedIn } from "../../components/signed-in.tsx";

export default function DashboardPage() {
  return (
    <SignedIn>
      <h1>Transaction Dashboard</h1>
    </SignedIn>
  );
}
