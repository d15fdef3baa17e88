/**
 * Arriving with an anchor from another page (the sign-in step links to Settings' #two-factor,
 * a screening's note to Risk score's thresholds) scrolls to it once the page's data has loaded,
 * so the sections above no longer move it; once per page and anchor, and only once it exists
 * (a lazy page's code may still be on its way: looked for again for up to five seconds).
 */
import { useIsFetching } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

const LOOK_EVERY_MS = 100;
const LOOKS = 50;

export function useScrollToAnchor() {
  const { pathname, hash } = useLocation();
  const fetching = useIsFetching();
  const done = useRef<string | null>(null);
  useEffect(() => {
    const key = `${pathname}${hash}`;
    if (!hash || fetching > 0 || done.current === key) return;
    let looks = 0;
    const look = () => {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) {
        done.current = key;
        target.scrollIntoView();
      }
      return target !== null || ++looks >= LOOKS;
    };
    if (look()) return;
    const timer = setInterval(() => {
      if (look()) clearInterval(timer);
    }, LOOK_EVERY_MS);
    return () => clearInterval(timer);
  }, [pathname, hash, fetching]);
}
