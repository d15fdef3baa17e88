import { SignedIn } from "../../components/signed-in.tsx";
import { ChangePasswordForm } from "./change-password-form.tsx";
import { ImportCharges } from "./import-charges.tsx";
import { SettingsSection } from "./settings-form.tsx";

export default function SettingsPage() {
  return (
    <SignedIn>
      <h1>Settings</h1>
      <SettingsSection />
      <ImportCharges />
      <ChangePasswordForm />
    </SignedIn>
  );
}
