/**
 * @module Types of the Worker bundler (JavaScript so the benchmark can run it without a build).
 */
export const workerEntry: string;

export interface WorkerBundle {
  /** The bundle: one ES module. */
  code: string;
  /** Absolute paths of every file inlined. */
  moduleIds: string[];
  /** Node built-ins the bundle still imports or requires (none may remain for workerd). */
  externals: string[];
}

export function bundleForWorkers(entry?: string): Promise<WorkerBundle>;
