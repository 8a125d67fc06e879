/**
 * @module Messages between the index and its read workers.
 */

export interface ReadWorkerInput {
  paths: string[];
}

export interface ReadBatch {
  /** `category\0key` of ids first used in this batch, in local id order. */
  newKeys: string[];
  files: {
    /** Position in the worker's `paths`. */
    index: number;
    mtimeMs: number;
    size: number;
    /** Vanished between listing and reading. */
    missing: boolean;
    error: string | null;
    legacy: boolean;
    /** Range of this file's entries in `ids` / `values`. */
    start: number;
    end: number;
  }[];
  ids: Uint32Array<ArrayBuffer>;
  values: Float64Array<ArrayBuffer>;
}
