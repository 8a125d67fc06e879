/**
 * @module A zod schema for a list whose items the engine checks one by one itself (a blocklist's
 * entries, each reported with its path): zod only checks that it is an array, and its length.
 * Even `z.array(z.unknown())` walks and copies every item, some 5-7 ms for 100,000 entries on the
 * way to the kernel.
 */
import { z } from 'zod';

export const unexaminedArray = (max?: number) =>
  z.custom<unknown[]>((value) => Array.isArray(value) && (max === undefined || value.length <= max), {
    message: max === undefined ? 'must be an array' : `must be an array of at most ${max} items`,
  });
