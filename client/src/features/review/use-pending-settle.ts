/**
 * Approve and deny wait UNDO_MS before they are sent, so a key pressed by mistake can be taken
 * back: the item leaves the list at once, the status line says what was done with an Undo, and
 * nothing reaches the server (nor the merchant's webhooks) unless the window passes. Settling
 * another item, a bulk action, leaving the page and closing the tab send the pending one at
 * once: a decision is never lost, only delayed. A settle that never reached the server (it was
 * down, the network was) is said so with the item back in the queue; one that failed after the
 * page was left is kept in sessionStorage and said when the queue is opened again.
 */

import { TRPCClientError } from "@trpc/client";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ReviewItem } from "../../../../shared/schemas/review.ts";
import { errorMessage } from "../../lib/trpc.ts";
import { notSentSentence, settledSentence, undoneSentence } from "./review-format.ts";
import { sendSettle } from "./settle-request.ts";

export const UNDO_MS = 5_000;

export type Settle = {
  item: ReviewItem;
  decision: "approve" | "deny";
  note?: string;
  alwaysAllow?: boolean;
};

/** What the status line says, about which item, and whether Undo is still possible. */
export type SettleStatus = { id: string; text: string; undo: boolean } | null;

type Pending = { settle: Settle; timer: ReturnType<typeof setTimeout> };

/** Where a settle lost after the page was left waits to be said. */
const UNSENT_KEY = "warden.review.unsent";

/** Whether the server never answered the settle (down, unreachable, or failing itself). */
function neverReached(error: unknown): boolean {
  const status = error instanceof TRPCClientError ? error.data?.httpStatus : undefined;
  return typeof status !== "number" || status >= 500;
}

/** A settle lost after the page was left, said once when the queue is opened again. */
export function takeUnsent(): string | null {
  try {
    const text = sessionStorage.getItem(UNSENT_KEY);
    if (text) sessionStorage.removeItem(UNSENT_KEY);
    return text;
  } catch {
    return null;
  }
}

export function usePendingSettle(events: {
  onSent(): unknown;
  /** `lost`: the server never answered; the item is back in the list (read nothing again). */
  onError(message: string, lost: boolean): void;
}) {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [status, setStatus] = useState<SettleStatus>(null);
  const pending = useRef<Pending | null>(null);
  const eventsRef = useRef(events);
  eventsRef.current = events;
  const mounted = useRef(true);

  const hide = useCallback((id: string, on: boolean) => {
    setHidden((before) => {
      const after = new Set(before);
      if (on) after.add(id);
      else after.delete(id);
      return after;
    });
  }, []);

  /** Sends the pending settle now, if any; resolves once the server has answered. */
  const flush = useCallback(async () => {
    const current = pending.current;
    if (!current) return;
    pending.current = null;
    clearTimeout(current.timer);
    const { item, decision, note, alwaysAllow } = current.settle;
    setStatus((s) => (s?.id === item.id ? { ...s, undo: false } : s));
    try {
      await sendSettle({
        id: item.id,
        kind: item.kind,
        decision,
        note: note || undefined,
        always_allow: decision === "approve" && alwaysAllow ? true : undefined,
      });
      await eventsRef.current.onSent();
    } catch (error) {
      const lost = neverReached(error);
      const message = lost
        ? notSentSentence(item, decision, errorMessage(error))
        : errorMessage(error);
      if (!mounted.current) {
        if (lost) {
          try {
            sessionStorage.setItem(UNSENT_KEY, message);
          } catch {}
        }
        return;
      }
      hide(item.id, false);
      setStatus((s) => (s?.id === item.id ? null : s));
      eventsRef.current.onError(message, lost);
    }
  }, [hide]);

  /** Takes the item out of the list and sends its settle when the undo window has passed. */
  const stage = useCallback(
    (settle: Settle) => {
      void flush();
      hide(settle.item.id, true);
      pending.current = { settle, timer: setTimeout(() => void flush(), UNDO_MS) };
      setStatus({
        id: settle.item.id,
        text: settledSentence(settle.item, settle.decision),
        undo: true,
      });
    },
    [flush, hide],
  );

  /** Puts the pending item back, unsent; returns it (null when nothing was pending). */
  const undo = useCallback((): ReviewItem | null => {
    const current = pending.current;
    if (!current) return null;
    pending.current = null;
    clearTimeout(current.timer);
    hide(current.settle.item.id, false);
    setStatus({
      id: current.settle.item.id,
      text: undoneSentence(current.settle.item),
      undo: false,
    });
    return current.settle.item;
  }, [hide]);

  // What was done stays in sight for a while after its undo window, then the line clears.
  useEffect(() => {
    if (!status || status.undo) return;
    const timer = setTimeout(() => setStatus((s) => (s === status ? null : s)), UNDO_MS);
    return () => clearTimeout(timer);
  }, [status]);

  // Leaving the page (unmount) or closing the tab sends what is pending rather than losing it.
  useEffect(() => {
    mounted.current = true;
    const onHide = () => void flush();
    window.addEventListener("pagehide", onHide);
    return () => {
      window.removeEventListener("pagehide", onHide);
      mounted.current = false;
      void flush();
    };
  }, [flush]);

  return { hidden, status, stage, undo, flush };
}
