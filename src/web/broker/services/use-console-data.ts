import { useCallback, useEffect, useState } from 'react';
import { getJson } from './console-api';

/**
 * What a screen reads from the console API: the data of `path` (null: nothing to read yet),
 * the error when the last read failed, whether a read is under way, and `reload` (after a
 * change). The data read before stays on screen while the next read runs, so a table keeps its
 * rows while it pages.
 */
export interface ConsoleData<T> {
  data: T | undefined;
  error: Error | null;
  loading: boolean;
  reload: () => void;
}

interface Loaded<T> {
  key: string;
  data: T | undefined;
  error: Error | null;
}

export function useConsoleData<T>(path: string | null): ConsoleData<T> {
  const [round, setRound] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<T>>({ key: '', data: undefined, error: null });
  const key = path === null ? '' : `${round}:${path}`;

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    getJson<T>(path, controller.signal).then(
      (data) => setLoaded({ key, data, error: null }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded((before) => ({ key, data: before.data, error: error instanceof Error ? error : new Error(String(error)) }));
      },
    );
    return () => controller.abort();
  }, [path, key]);

  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { data: loaded.data, error: loaded.key === key ? loaded.error : null, loading: path !== null && loaded.key !== key, reload };
}
