/**
 * At most one call per key per interval, the first at once and, if more came meanwhile, one
 * more when the interval ends: a burst of a thousand becomes two, and the last change is never
 * lost. A hit costs a map lookup; a key is forgotten once its interval passes quietly, so the
 * map holds only the keys active in the last interval.
 */

export type Coalescer = {
  /** Something changed for `key`. */
  hit(key: string): void;
  /** Drops every waiting call. */
  clear(): void;
};

type Quiet = { again: boolean; timer: NodeJS.Timeout };

export function createCoalescer(
  intervalMs: number,
  fire: (key: string) => void,
  onError: (error: unknown) => void = () => {},
): Coalescer {
  const cooling = new Map<string, Quiet>();

  function call(key: string) {
    try {
      fire(key);
    } catch (error) {
      onError(error);
    }
  }

  function cool(key: string) {
    const quiet: Quiet = {
      again: false,
      timer: setTimeout(() => {
        cooling.delete(key);
        if (quiet.again) hit(key);
      }, intervalMs),
    };
    quiet.timer.unref();
    cooling.set(key, quiet);
  }

  function hit(key: string) {
    const quiet = cooling.get(key);
    if (quiet) {
      quiet.again = true;
      return;
    }
    cool(key);
    call(key);
  }

  return {
    hit,
    clear() {
      for (const quiet of cooling.values()) clearTimeout(quiet.timer);
      cooling.clear();
    },
  };
}
