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
}

export function createRandom(seed: number): () => number;
export function randomStats(random: () => number): StatsObject;
export function generateServer(dir: string, options: GenerateOptions): Promise<GeneratedPlayer[]>;
