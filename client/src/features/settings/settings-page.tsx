import { Editable } from "../../components/editable.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { AccountSection } from "../account-data/account-section.tsx";
import { RetentionSection } from "../retention/retention-section.tsx";
import { TwoFactorSection } from "../two-factor/two-factor-section.tsx";
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
      <Editable need="configure">
        <SettingsSection />
        <ApiKeysSection />
        <WebhooksSection />
        <ImportCharges />
      </Editable>
      {/* Owners only: the section says so to the rest. */}
      <RetentionSection />
      <AccountSection />
      {/* One's own sign-in, whatever one's role. */}
      <ChangePasswordForm />
      <TwoFactorSection />
    </SignedIn>
  );
}
