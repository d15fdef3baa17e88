import { SignedIn } from "../../components/signed-in.tsx";
import { ChangePasswordForm } from "./change-password-form.tsx";

export default function SettingsPage() {
  return (
    <SignedIn>
      <h1>Settings</h1>
      <ChangePasswordForm />
    </SignedIn>
  );
}
