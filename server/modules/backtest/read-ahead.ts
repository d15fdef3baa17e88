/**
 * Yields what `batches` yields, asking for the next batch before handing out the current
 * one, so the database reads batch n+1 while the replay judges batch n.
 */
export async function* readAhead<T>(batches: AsyncIterable<T>): AsyncGenerator<T> {
  const it = batches[Symbol.asyncIterator]();
  let next = it.next();
  try {
    for (;;) {
      const current = await next;
      if (current.done) return;
      next = it.next();
      // A rejected read-ahead is reported when it is awaited, not as unhandled meanwhile.
      next.catch(() => {});
      // One turn of the event loop so the query is on the wire before the replay holds the
      // thread (the pool hands out its connection on a later tick).
      await new Promise((resolve) => setImmediate(resolve));
      yield current.value;
    }
  } finally {
    await it.return?.();
  }
}
