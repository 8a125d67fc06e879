/**
 * @module Types of server-generator.mjs.
 */
export type StatsObject = Record<string, Record<string, number>>;

export interface GeneratedPlayer {
  uuid: string;
  name: string | null;
  layout: 'stats' | 'players/stats';
  stats: StatsObject | null;
  corrupt?: boolean;
  legacy?: Record<string, number>;
}

export interface GenerateOptions {
  players: number;
  seed?: number;
  newLayoutShare?: number;
  corrupt?: number;
  legacy?: number;
  unnamed?: number;
  rcon?: { port: number; password: string };
  compact?: boolean;
  /** `casual`: about 80 entries (2.4 KB) per file instead of about 60. */
  shape?: 'default' | 'casual';
}

export function createRandom(seed: number): () => number;
export function randomStats(random: () => number, shape?: 'default' | 'casual'): StatsObject;
export function generateServer(dir: string, options: GenerateOptions): Promise<GeneratedPlayer[]>;
