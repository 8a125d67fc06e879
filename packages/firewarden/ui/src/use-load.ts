/** The shared `useLoad` (newest answer wins) with firewarden's wording of an API error (message and code). */
import { useLoad as useSharedLoad } from '@suite/web-ui';
import { describeError } from './api';

export function useLoad<T>(load: () => Promise<T>, dependencies: readonly unknown[] = []) {
  return useSharedLoad(load, dependencies, describeError);
}
