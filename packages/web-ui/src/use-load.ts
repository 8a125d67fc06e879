/**
 * Loads data for a screen, loads it again when what it depends on changes or on `reload()`, and
 * keeps the error where the data would be. Only the answer of the newest load is kept: an older
 * one arriving last (a slow first filter, a reload racing a change) is dropped.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from './error-text.js';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  /** Loads again; settles once that answer (or a newer one) is shown. */
  reload: () => Promise<void>;
}

/**
 * `dependencies` names what `load` reads (a filter, an id): a change loads again. `describe`
 * turns a failure into the text shown (the product's own wording of its API errors).
 */
export function useLoad<T>(
  load: () => Promise<T>,
  dependencies: readonly unknown[] = [],
  describe: (failure: unknown) => string = errorText,
): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const newest = useRef(0);
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const latestDescribe = useRef(describe);
  latestDescribe.current = describe;

  const reload = useCallback(async () => {
    const ticket = ++newest.current;
    try {
      const value = await latestLoad.current();
      if (ticket !== newest.current) return;
      setData(value);
      setError(undefined);
    } catch (failure) {
      if (ticket === newest.current) setError(latestDescribe.current(failure));
    }
  }, []);

  useEffect(() => {
    void reload();
    // Unmounted or superseded: whatever is still in flight is not shown.
    return () => {
      newest.current++;
    };
  }, [...dependencies, reload]);

  return { data, error, reload };
}
