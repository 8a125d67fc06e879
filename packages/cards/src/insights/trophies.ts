/**
 * @module Trophy tiers (SSS to C) for stars, commits, followers, pull requests, issues and
 * repositories, with the thresholds of github-profile-trophy.
 */

export type TrophyTier = 'SSS' | 'SS' | 'S' | 'AAA' | 'AA' | 'A' | 'B' | 'C';
export type TrophyKind = 'stars' | 'commits' | 'followers' | 'pullRequests' | 'issues' | 'repositories';

const tierOrder: readonly TrophyTier[] = ['SSS', 'SS', 'S', 'AAA', 'AA', 'A', 'B', 'C'];

/** Minimum value per tier, in the order of `tierOrder`. */
const thresholds: Record<TrophyKind, readonly number[]> = {
  stars: [2000, 700, 200, 100, 50, 30, 10, 1],
  commits: [4000, 2000, 1000, 500, 200, 100, 10, 1],
  followers: [1000, 400, 200, 100, 50, 20, 10, 1],
  pullRequests: [1000, 500, 200, 100, 50, 20, 10, 1],
  issues: [1000, 500, 200, 100, 50, 20, 10, 1],
  repositories: [50, 45, 40, 35, 30, 20, 10, 1],
};

export const trophyTitles: Record<TrophyKind, string> = {
  stars: 'Stars',
  commits: 'Commits',
  followers: 'Followers',
  pullRequests: 'Pull Requests',
  issues: 'Issues',
  repositories: 'Repositories',
};

const trophyKinds = Object.keys(thresholds) as TrophyKind[];

export interface Trophy {
  kind: TrophyKind;
  value: number;
  /** Null below the first tier (no trophy yet). */
  tier: TrophyTier | null;
  /** Value of the next tier up, null at SSS. */
  next: number | null;
}

export function trophyFor(kind: TrophyKind, value: number): Trophy {
  const limits = thresholds[kind];
  const index = limits.findIndex((limit) => value >= limit);
  if (index === -1) return { kind, value, tier: null, next: limits.at(-1) ?? null };
  return {
    kind,
    value,
    tier: tierOrder[index] ?? null,
    next: index === 0 ? null : (limits[index - 1] ?? null),
  };
}

export function trophiesFor(values: Record<TrophyKind, number>): Trophy[] {
  return trophyKinds.map((kind) => trophyFor(kind, values[kind]));
}
