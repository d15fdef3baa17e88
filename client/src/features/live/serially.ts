/**
 * Runs `run` at most once at a time: called while it runs, it runs once more afterwards (never
 * more), so a refetch that started before the last change is always followed by one after it,
 * and a stream of changes never piles up requests.
 */
export function serially(run: () => Promise<unknown>): () => void {
  let running = false;
  let again = false;
  const trigger = () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void run()
      .catch(() => {})
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          trigger();
        }
      });
  };
  return trigger;
}
