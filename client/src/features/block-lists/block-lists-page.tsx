import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { COUNTRIES } from "../../../../shared/catalog/countries.ts";
import { EMAIL_PROVIDER_PRESETS } from "../../../../shared/catalog/email-providers.ts";
import { MESSAGES } from "../../../../shared/messages.ts";
import {
  type Blocklist,
  normalizeProvider,
  ZBlocklist,
} from "../../../../shared/schemas/blocklist.ts";
import { Editable } from "../../components/editable.tsx";
import { LoadError, SaveStatus } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { useAutosave } from "../../lib/use-autosave.ts";
import { AllowListSection } from "./allow-list-section.tsx";
import "../../components/console.css";

export default function BlockListsPage() {
  return (
    <SignedIn>
      <h1>Block lists</h1>
      <p className="config-note">{MESSAGES.blocklistNote}</p>
      <Editable need="configure">
        <BlocklistEditor />
      </Editable>
      <Editable need="review">
        <AllowListSection />
      </Editable>
    </SignedIn>
  );
}

const toggled = (list: string[], item: string) =>
  list.includes(item) ? list.filter((entry) => entry !== item) : [...list, item];

function BlocklistEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(trpc.blocklist.get.queryOptions());
  const put = useMutation(trpc.blocklist.put.mutationOptions());
  const blocklist = useAutosave<Blocklist>({
    data: query.data,
    save: put.mutateAsync,
    onSaved: (saved) => queryClient.setQueryData(trpc.blocklist.get.queryKey(), saved),
  });
  const [draft, setDraft] = useState("");
  const [draftError, setDraftError] = useState<string | null>(null);
  const [filter, setFilter] = useState("");

  if (query.isError) return <LoadError what="your block lists" error={errorMessage(query.error)} />;
  const value = blocklist.value;
  if (!value) return <p className="loading">{MESSAGES.loadingBlocklist}</p>;
  const busy = blocklist.saving;

  const setProviders = (change: (providers: string[]) => string[]) =>
    blocklist.update((current) => ({
      ...current,
      email_providers: change(current.email_providers),
    }));

  function addCustom(event: FormEvent) {
    event.preventDefault();
    const domain = normalizeProvider(draft);
    if (!domain || !value) return;
    setDraftError(null);
    if (value.email_providers.includes(domain)) {
      setDraft("");
      return;
    }
    const next = { ...value, email_providers: [...value.email_providers, domain] };
    const checked = ZBlocklist.safeParse(next);
    if (!checked.success) {
      setDraftError(`${domain}: ${checked.error.issues[0]?.message ?? "is not allowed"}`);
      return;
    }
    setDraft("");
    setProviders((providers) => (providers.includes(domain) ? providers : [...providers, domain]));
  }

  const needle = filter.trim().toLowerCase();
  const countries = needle
    ? COUNTRIES.filter(
        (country) =>
          country.name.toLowerCase().includes(needle) || country.code.toLowerCase() === needle,
      )
    : COUNTRIES;

  return (
    <>
      <section className="config-section" aria-labelledby="providers-title">
        <h2 id="providers-title">Blocked Email Providers</h2>
        <fieldset className="preset-grid" aria-label="Common providers">
          {EMAIL_PROVIDER_PRESETS.map((preset) => (
            <label key={preset} className="check-row">
              <input
                type="checkbox"
                checked={value.email_providers.includes(preset)}
                disabled={busy}
                onChange={() => setProviders((providers) => toggled(providers, preset))}
              />
              {preset}
            </label>
          ))}
        </fieldset>
        <form className="inline-form" onSubmit={addCustom}>
          <label>
            Custom domain
            <input
              name="custom-domain"
              placeholder="example.com"
              autoComplete="off"
              value={draft}
              disabled={busy}
              onChange={(event) => {
                setDraft(event.target.value);
                setDraftError(null);
              }}
            />
          </label>
          <button type="submit" disabled={busy || draft.trim() === ""}>
            Add
          </button>
        </form>
        {draftError && (
          <p className="message error" role="alert">
            {draftError}
          </p>
        )}
        {value.email_providers.length === 0 ? (
          <p className="config-note">No providers blocked.</p>
        ) : (
          <ul className="chip-list" aria-label="Blocked providers">
            {value.email_providers.map((provider) => (
              <li key={provider}>
                <span>{provider}</span>
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Remove ${provider}`}
                  disabled={busy}
                  onClick={() =>
                    setProviders((providers) => providers.filter((p) => p !== provider))
                  }
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="config-section" aria-labelledby="countries-title">
        <h2 id="countries-title">Country block list</h2>
        <p className="config-note">
          {value.countries.length === 0
            ? "No countries blocked."
            : `Blocked: ${[...value.countries].sort().join(", ")}`}
        </p>
        <label>
          Filter countries
          <input
            type="search"
            name="country-filter"
            placeholder="Name or ISO code"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
        </label>
        <ul className="country-list" aria-label="Countries">
          {countries.map((country) => (
            <li key={country.code}>
              <label className="check-row">
                <input
                  type="checkbox"
                  name={`country-${country.code}`}
                  checked={value.countries.includes(country.code)}
                  disabled={busy}
                  onChange={() =>
                    blocklist.update((current) => ({
                      ...current,
                      countries: toggled(current.countries, country.code),
                    }))
                  }
                />
                <span>{country.name}</span>
                <code>{country.code}</code>
              </label>
            </li>
          ))}
          {countries.length === 0 && <li>No country matches “{filter}”.</li>}
        </ul>
      </section>
      <SaveStatus saving={blocklist.saving} saved={blocklist.saved} error={blocklist.error} />
    </>
  );
}
