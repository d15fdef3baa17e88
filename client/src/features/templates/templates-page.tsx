import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TEMPLATE_CATALOG } from "../../../../shared/catalog/templates.ts";
import type { TemplateKey, Templates } from "../../../../shared/schemas/templates.ts";
import { Editable } from "../../components/editable.tsx";
import { LoadError, SaveStatus } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { ToggleList } from "../../components/toggle-list.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { useAutosave } from "../../lib/use-autosave.ts";
import { TemplatePresets } from "./template-presets.tsx";
import "./templates.css";

const PRESETS = new Map(TEMPLATE_CATALOG.map((template) => [template.key, template]));

export default function TemplatesPage() {
  return (
    <SignedIn>
      <h1>Templates</h1>
      <Editable need="configure">
        <TemplatesEditor />
      </Editable>
    </SignedIn>
  );
}

function TemplatesEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(trpc.templates.get.queryOptions());
  const put = useMutation(trpc.templates.put.mutationOptions());
  const templates = useAutosave<Templates>({
    data: query.data,
    save: put.mutateAsync,
    onSaved: (saved) => {
      queryClient.setQueryData(trpc.templates.get.queryKey(), saved);
      void queryClient.invalidateQueries({ queryKey: trpc.ruleSettings.effective.queryKey() });
    },
  });

  if (query.isError) return <LoadError what="your templates" error={errorMessage(query.error)} />;
  const value = templates.value;
  if (!value) return <p className="loading">Loading…</p>;

  const toggle = (key: TemplateKey) =>
    templates.update((current) => ({ ...current, [key]: !current[key] }));
  return (
    <section className="config-section" aria-label="Templates">
      <ToggleList
        label="Templates"
        items={TEMPLATE_CATALOG}
        values={value}
        onToggle={toggle}
        extra={(key) => {
          const template = PRESETS.get(key);
          return template && <TemplatePresets template={template} />;
        }}
      />
      <SaveStatus saving={templates.saving} saved={templates.saved} error={templates.error} />
    </section>
  );
}
