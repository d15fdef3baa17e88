import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TEMPLATE_CATALOG } from "../../../../shared/catalog/templates.ts";
import { MESSAGES } from "../../../../shared/messages.ts";
import type { TemplateKey, Templates } from "../../../../shared/schemas/templates.ts";
import { LoadError, SaveStatus } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { ToggleList } from "../../components/toggle-list.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { useAutosave } from "../../lib/use-autosave.ts";

const ITEMS = TEMPLATE_CATALOG.map((template) => ({
  ...template,
  note: MESSAGES.underDevelopment,
}));

export default function TemplatesPage() {
  return (
    <SignedIn>
      <h1>Templates</h1>
      <TemplatesEditor />
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
    onSaved: (saved) => queryClient.setQueryData(trpc.templates.get.queryKey(), saved),
  });

  if (query.isError) return <LoadError what="your templates" error={errorMessage(query.error)} />;
  const value = templates.value;
  if (!value) return <p className="loading">Loading…</p>;

  const toggle = (key: TemplateKey) =>
    templates.update((current) => ({ ...current, [key]: !current[key] }));
  return (
    <section className="config-section" aria-label="Templates">
      <ToggleList label="Templates" items={ITEMS} values={value} onToggle={toggle} />
      <SaveStatus saving={templates.saving} error={templates.error} />
    </section>
  );
}
