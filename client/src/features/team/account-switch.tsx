/**
 * The header's account switch, for a person in more than one account: a select-only
 * combobox (WAI-ARIA's pattern) whose list shows each account's name and the person's role
 * there, so no two look alike (the server makes the names distinct). Picking one makes the
 * session act there, forgets every answer cached for the other account, and opens its
 * dashboard. Hidden for a person with one account. Not a native <select>: its list shows
 * two lines an option, and draws like the rest of the page.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { ROLE_LABELS } from "../../../../shared/team/roles.ts";
import { useRefreshSession } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import "./account-switch.css";

export function AccountSwitch() {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const accounts = useQuery(trpc.auth.accounts.queryOptions());
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const listId = useId();
  const switchAccount = useMutation(
    trpc.auth.switchAccount.mutationOptions({
      onSuccess: async () => {
        navigate("/homepage/dashboard");
        await refreshSession();
      },
    }),
  );
  const list = accounts.data ?? [];
  const currentIndex = Math.max(
    0,
    list.findIndex((account) => account.current),
  );

  // A tap elsewhere closes the list.
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  if (list.length < 2) return null;
  const current = list[currentIndex];

  function show() {
    setActive(currentIndex);
    setOpen(true);
  }
  function pick(index: number) {
    setOpen(false);
    const chosen = list[index];
    if (chosen && !chosen.current) switchAccount.mutate({ account_id: chosen.account_id });
  }
  function onKeyDown(event: KeyboardEvent) {
    const last = list.length - 1;
    const moves: Record<string, () => void> = {
      ArrowDown: () => (open ? setActive((i) => Math.min(last, i + 1)) : show()),
      ArrowUp: () => (open ? setActive((i) => Math.max(0, i - 1)) : show()),
      Home: () => setActive(0),
      End: () => setActive(last),
      Enter: () => (open ? pick(active) : show()),
      " ": () => (open ? pick(active) : show()),
      Escape: () => setOpen(false),
      Tab: () => setOpen(false),
    };
    const move = moves[event.key];
    if (!move) return;
    if (event.key !== "Tab") event.preventDefault();
    move();
  }

  return (
    <div className="account-switch" ref={root}>
      <button
        type="button"
        role="combobox"
        aria-label="Account"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        className="account-switch-button"
        disabled={switchAccount.isPending}
        data-account={current?.account_id}
        title={current ? `${current.name} (${ROLE_LABELS[current.role]})` : undefined}
        onClick={() => (open ? setOpen(false) : show())}
        onKeyDown={onKeyDown}
      >
        <span className="account-switch-name">{current?.name}</span>
        <span className="account-switch-role">{current && ROLE_LABELS[current.role]}</span>
      </button>
      {open && (
        <div className="account-switch-list" role="listbox" id={listId} aria-label="Accounts">
          {list.map((account, index) => (
            // The button keeps focus (aria-activedescendant); a click picks with the pointer.
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox handles the keys
            <div
              key={account.account_id}
              id={`${listId}-${index}`}
              role="option"
              tabIndex={-1}
              aria-selected={account.current}
              data-account={account.account_id}
              className={
                index === active ? "account-switch-option active" : "account-switch-option"
              }
              onPointerEnter={() => setActive(index)}
              onClick={() => pick(index)}
            >
              <span className="account-switch-name">{account.name}</span>
              <span className="account-switch-role">
                {ROLE_LABELS[account.role]}
                {account.current ? " · current" : ""}
              </span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
