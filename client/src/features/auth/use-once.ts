import { useEffect, useRef } from "react";

/** Runs `effect` once per mount, even under StrictMode's double effects. */
export function useOnce(effect: () => void): void {
  const ran = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once by design
  useEffect(() => {
    if (ran.current) return;
    ran.current = true;
    effect();
  }, []);
}
