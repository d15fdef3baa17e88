import { SignedIn } from "../../components/signed-in.tsx";
import { ApiKeysSection } from "./api-keys-section.tsx";
import { ChangePasswordForm } from "./change-password-form.tsx";
import { ImportCharges } from "./import-charges.tsx";
import { SettingsSection } from "./settings-form.tsx";
import { WebhooksSection } from "./webhooks-section.tsx";
import "./settings.css";

export default function SettingsPage() {
  return (
    <SignedIn>
      <h1>Settings</h1>
      <SettingsSection />
      <ApiKeysSection />
      <WebhooksSection />
      <ImportCharges />
      <ChangePasswordForm />
    </SignedIn>
  );
}
