/**
 * Optimistic editing of a whole server object (rules, templates, block list): a change shows
 * at once, then the full object is saved. Saves run one at a time and always send the newest
 * object, so rapid changes are never lost and the stored object ends equal to the screen.
 * A failed save puts back what the server last confirmed and reports the error.
 */
import { useCallback, useRef, useState } from "react";
import { errorMessage } from "./trpc.ts";

type Options<T> = {
  /** The loaded object; undefined while loading. */
  data: T | undefined;
  save: (value: T) => Promise<T>;
  /** Called with what the server stored once no newer change is waiting. */
  onSaved?: (value: T) => void;
};

export function useAutosave<T extends object>({ data, save, onSaved }: Options<T>) {
  const [local, setLocal] = useState<T | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // True once the newest change is stored, until the next one: the page says "Saved".
  const [saved, setSaved] = useState(false);
  const latest = useRef<T | null>(null);
  const confirmed = useRef<T | null>(null);
  const running = useRef(false);
  const saveRef = useRef(save);
  saveRef.current = save;
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;

  const flush = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    setSaving(true);
    try {
      while (latest.current !== null && latest.current !== confirmed.current) {
        const sending: T = latest.current;
        try {
          const stored = await saveRef.current(sending);
          confirmed.current = sending;
          if (latest.current === sending) {
            latest.current = stored;
            confirmed.current = stored;
            setLocal(stored);
            onSavedRef.current?.(stored);
            setSaved(true);
          }
        } catch (failure) {
          latest.current = confirmed.current;
          setLocal(confirmed.current);
          setError(errorMessage(failure));
          break;
        }
      }
    } finally {
      running.current = false;
      setSaving(false);
    }
  }, []);

  const update = useCallback(
    (change: (current: T) => T) => {
      const base = latest.current ?? data;
      if (!base) return;
      if (confirmed.current === null) confirmed.current = base;
      const next = change(base);
      latest.current = next;
      setLocal(next);
      setError(null);
      setSaved(false);
      void flush();
    },
    [data, flush],
  );

  return { value: local ?? data, update, saving, saved, error };
}
