/**
 * Reads by key in batches, as a group commit does writes: the keys asked for while one read is
 * in flight go together into the next read, so under load many requests share one query while
 * an idle server reads at once (setImmediate, no timer). Every caller gets a read that started after it asked, so a
 * change committed before a request arrived is always seen by it.
 * `read` answers the keys it found; a key it did not find resolves to null.
 */
export function batchedReader<K, V>(read: (keys: K[]) => Promise<ReadonlyMap<K, V>>) {
  let waiting = new Map<K, { resolve: (value: V | null) => void; reject: (error: unknown) => void }[]>();
  let reading = false;

  const run = async () => {
    while (waiting.size > 0) {
      const batch = waiting;
      waiting = new Map();
      try {
        const found = await read([...batch.keys()]);
        for (const [key, callers] of batch) for (const caller of callers) caller.resolve(found.get(key) ?? null);
      } catch (error) {
        for (const callers of batch.values()) for (const caller of callers) caller.reject(error);
      }
    }
    reading = false;
  };

  return (key: K): Promise<V | null> =>
    new Promise((resolve, reject) => {
      const callers = waiting.get(key);
      if (callers) callers.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      if (!reading) {
        reading = true;
        // After the requests this turn of the event loop read, so they share the first query too.
        setImmediate(() => void run());
      }
    });
}
