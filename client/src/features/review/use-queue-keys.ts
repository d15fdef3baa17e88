/**
 * The review queue's keys: j / k select the next or previous item, a / d approve or deny the
 * selected one, u undoes that while it is pending (not while typing in a field); the selected
 * item is scrolled into view.
 */
import { type Dispatch, type SetStateAction, useEffect, useRef } from "react";
import type { ReviewItem } from "../../../../shared/schemas/review.ts";
import { isTyping, step } from "./review-format.ts";

export function useQueueKeys(
  items: ReviewItem[],
  current: number,
  setSelected: Dispatch<SetStateAction<number>>,
  decide: (item: ReviewItem | undefined, decision: "approve" | "deny") => void,
  undo: () => void,
) {
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const selectedRef = useRef(current);
  selectedRef.current = current;
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      const current = itemsRef.current;
      if (event.key === "j") setSelected((i) => step(i, 1, current.length));
      else if (event.key === "k") setSelected((i) => step(i, -1, current.length));
      else if (event.key === "a") decide(current[selectedRef.current], "approve");
      else if (event.key === "d") decide(current[selectedRef.current], "deny");
      else if (event.key === "u") undo();
      else return;
      event.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [decide, undo, setSelected]);
  const currentId = items[current]?.id;
  useEffect(() => {
    if (currentId)
      document.getElementById(`rv-${currentId}`)?.scrollIntoView?.({ block: "nearest" });
  }, [currentId]);
}
