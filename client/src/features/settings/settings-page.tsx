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

/** The page's sections in order, each an anchor the contents and other pages link to. */
const SETTINGS_SECTIONS = [
  ["app", "App and Stripe"],
  ["api-keys", "API keys"],
  ["collector", "Allowed origins"],
  ["webhooks", "Decision webhooks"],
  ["import", "Import past charges"],
  ["retention", "Data retention"],
  ["account", "Account"],
  ["password", "Change password"],
  ["two-factor", "Two-factor sign-in"],
] as const;

export default function SettingsPage() {
  return (
    <SignedIn>
      <h1>Settings</h1>
      <nav className="settings-contents" aria-label="Settings sections">
        <ul>
          {SETTINGS_SECTIONS.map(([id, title]) => (
            <li key={id}>
              <a href={`#${id}`}>{title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <Editable need="configure">
        <div id="app" className="settings-anchor">
          <SettingsSection />
        </div>
        {/* Allowed origins (#collector) sit inside the API keys section, under the keys. */}
        <div id="api-keys" className="settings-anchor">
          <ApiKeysSection />
        </div>
        <div id="webhooks" className="settings-anchor">
          <WebhooksSection />
        </div>
        <div id="import" className="settings-anchor">
          <ImportCharges />
        </div>
      </Editable>
      {/* Owners only: the section says so to the rest. */}
      <div id="retention" className="settings-anchor">
        <RetentionSection />
      </div>
      <div id="account" className="settings-anchor">
        <AccountSection />
      </div>
      {/* One's own sign-in, whatever one's role. */}
      <div id="password" className="settings-anchor">
        <ChangePasswordForm />
      </div>
      {/* Its section carries the id "two-factor" itself (the sign-in step links to it). */}
      <TwoFactorSection />
    </SignedIn>
  );
}
