/**
 * Group commit for callers that each have one small database statement to run: while
 * `lanes` batches are in flight, new items wait, and the next free lane takes all that are
 * waiting (up to `maxBatch`) as one statement. Under light load every item goes alone and at
 * once (no timer, no added latency); under heavy load one statement, one round trip and one
 * commit carry many items, which is most of what a small write costs PostgreSQL.
 *
 * `run` answers for every item it was given, in order. When a batch of several fails as a
 * whole (one item's bad value, a deadlock, a lost connection), its items are run again one
 * by one, so each caller gets its own result or its own error. Only a statement that is one
 * transaction (or reads only) may be batched this way: a failed batch must have kept nothing.
 *
 * `canJoin` keeps an item out of a batch that already holds a conflicting one (two writes of
 * one row cannot share a statement); it waits for the next batch. It must accept any item
 * into an empty batch.
 */
export type BatcherOptions<I> = {
  lanes: number;
  maxBatch: number;
  canJoin?: (item: I, batch: readonly I[]) => boolean;
  /** Told the size of each batch sent (for metrics and tests). */
  onBatch?: (size: number) => void;
};

type Waiting<I, O> = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void };

export function createBatcher<I, O>(
  run: (items: I[]) => Promise<O[]>,
  { lanes, maxBatch, canJoin, onBatch }: BatcherOptions<I>,
): (item: I) => Promise<O> {
  let waiting: Waiting<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  /** Takes the next batch off the queue: oldest first, skipping items that cannot join. */
  function take(): Waiting<I, O>[] {
    const batch: Waiting<I, O>[] = [];
    const items: I[] = [];
    const left: Waiting<I, O>[] = [];
    for (const entry of waiting) {
      if (batch.length < maxBatch && (!canJoin || canJoin(entry.item, items))) {
        batch.push(entry);
        items.push(entry.item);
      } else left.push(entry);
    }
    waiting = left;
    return batch;
  }

  async function send(batch: Waiting<I, O>[]): Promise<void> {
    onBatch?.(batch.length);
    try {
      const results = await run(batch.map((entry) => entry.item));
      if (results.length !== batch.length) {
        throw new Error(`batch of ${batch.length} answered ${results.length}`);
      }
      for (const [i, entry] of batch.entries()) entry.resolve(results[i] as O);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // Which item failed is unknown and the batch kept nothing: each goes again alone.
      for (const entry of batch) await send([entry]);
    }
  }

  function flush(): void {
    scheduled = false;
    while (inFlight < lanes && waiting.length > 0) {
      const batch = take();
      if (batch.length === 0) return;
      inFlight++;
      void send(batch).finally(() => {
        inFlight--;
        schedule();
      });
    }
  }

  /**
   * Flushes after the event loop's next I/O phase, so that requests already received join the
   * batch. With the embedded database a statement runs on this thread, so nothing arrives
   * while one is in flight: without this every batch held one item.
   */
  function schedule(): void {
    if (scheduled || inFlight >= lanes || waiting.length === 0) return;
    scheduled = true;
    setImmediate(flush);
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      schedule();
    });
}
