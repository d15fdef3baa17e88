/** A search box that runs its search once typing pauses, so each keystroke is not a query. */
import { useEffect, useRef, useState } from "react";

const SEARCH_DELAY_MS = 300;

export function SearchField({
  value,
  placeholder,
  onSearch,
}: {
  /** The search in force (trimmed), or undefined for none. */
  value: string | undefined;
  placeholder: string;
  onSearch: (term: string | undefined) => void;
}) {
  const [text, setText] = useState(value ?? "");
  // The latest callback, so a parent's re-render does not restart the pause.
  const latest = useRef(onSearch);
  latest.current = onSearch;
  useEffect(() => {
    const term = text.trim() || undefined;
    if (term === value) return;
    const timer = setTimeout(() => latest.current(term), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <label>
      Search
      <input
        type="search"
        name="search"
        placeholder={placeholder}
        autoComplete="off"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </label>
  );
}
