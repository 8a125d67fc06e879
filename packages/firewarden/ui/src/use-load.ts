/** Loads one API answer for a screen, with its error, and a way to load it again. */
import { useCallback, useEffect, useState } from 'react';
import { describeError } from './api';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  reload: () => Promise<void>;
}

/** `key` names what the load depends on (a query string): a new key loads again. */
export function useLoad<T>(load: () => Promise<T>, key = ''): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `load` is a new closure each render; `key` says when it changed
  const reload = useCallback(async () => {
    try {
      setData(await load());
      setError(null);
    } catch (failure) {
      setError(describeError(failure));
    }
  }, [key]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, reload };
}
