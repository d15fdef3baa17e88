/** A new API key, shown this once until the merchant says they have copied it. */
import type { ApiKeyCreated } from "../../../../shared/schemas/api-keys.ts";
import { SecretOnce } from "../../components/secret-once.tsx";

export function NewKeyBox({ created, onDone }: { created: ApiKeyCreated; onDone: () => void }) {
  return (
    <SecretOnce
      title="New API key"
      fieldLabel="Your new API key"
      name="new_api_key"
      secret={created.key}
      onDone={onDone}
    >
      <strong>Copy it now, it will not be shown again.</strong> Key “{created.name}” was created;
      Warden keeps only a hash of it.
    </SecretOnce>
  );
}
