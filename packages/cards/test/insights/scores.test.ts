/**
 * @module Rank vectors published by github-readme-stats, trophy thresholds, the developer score,
 * language shares, star metrics, commit hours and durations, all worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { commitHours } from '../../src/insights/commit-hours.js';
import { contributionGrid } from '../../src/insights/contribution-grid.js';
import { developerScore } from '../../src/insights/developer-score.js';
import { accountAge, relativeTime } from '../../src/insights/durations.js';
import { languageShares } from '../../src/insights/language-shares.js';
import { calculateRank } from '../../src/insights/rank.js';
import { starMetrics, starsAt } from '../../src/insights/star-metrics.js';
import { trophyFor } from '../../src/insights/trophies.js';

describe('calculateRank (published test vectors)', () => {
  const rank = (
    commits: number,
    pullRequests: number,
    issues: number,
    reviews: number,
    stars: number,
    followers: number,
  ) => calculateRank({ allCommits: false, commits, pullRequests, issues, reviews, stars, followers });

  it('matches every vector', () => {
    expect(rank(0, 0, 0, 0, 0, 0)).toEqual({ level: 'C', percentile: 100 });
    expect(rank(250, 50, 25, 10, 50, 10)).toEqual({ level: 'B+', percentile: 46.09375 });
    expect(rank(500, 100, 50, 20, 200, 40)).toEqual({ level: 'A', percentile: 20.841471354166664 });
    expect(rank(1000, 200, 100, 40, 800, 160)).toEqual({ level: 'A+', percentile: 5.575988339442828 });
  });

  it('uses the all-commits median of 1,000', () => {
    const yearly = calculateRank({
      allCommits: false,
      commits: 250,
      pullRequests: 0,
      issues: 0,
      reviews: 0,
      stars: 0,
      followers: 0,
    });
    const all = calculateRank({
      allCommits: true,
      commits: 1000,
      pullRequests: 0,
      issues: 0,
      reviews: 0,
      stars: 0,
      followers: 0,
    });
    // Both are the median: weight 2 of 12 at cdf 0.5 -> 100 x (1 - 1/12).
    expect(yearly.percentile).toBeCloseTo(91.6667, 4);
    expect(all.percentile).toBeCloseTo(91.6667, 4);
  });
});

describe('trophies', () => {
  it('applies the tier thresholds at their edges', () => {
    expect(trophyFor('stars', 0).tier).toBeNull();
    expect(trophyFor('stars', 1).tier).toBe('C');
    expect(trophyFor('stars', 9).tier).toBe('C');
    expect(trophyFor('stars', 10).tier).toBe('B');
    expect(trophyFor('stars', 199)).toEqual({ kind: 'stars', value: 199, tier: 'AAA', next: 200 });
    expect(trophyFor('stars', 2000)).toEqual({ kind: 'stars', value: 2000, tier: 'SSS', next: null });
    expect(trophyFor('commits', 4000).tier).toBe('SSS');
    expect(trophyFor('commits', 3999).tier).toBe('SS');
    expect(trophyFor('followers', 400).tier).toBe('SS');
    expect(trophyFor('pullRequests', 500).tier).toBe('SS');
    expect(trophyFor('issues', 20).tier).toBe('A');
    expect(trophyFor('repositories', 45).tier).toBe('SS');
    expect(trophyFor('repositories', 44).tier).toBe('S');
  });
});

describe('developerScore', () => {
  it('follows the documented formula', () => {
    // ada: 40x157/257 + 30x12/62 + 20x18/518 + 10x4/24 = 24.44 + 5.81 + 0.69 + 1.67 = 32.6
    expect(developerScore({ stars: 157, followers: 12, commitsLastYear: 18, publicRepositories: 4 })).toBe(
      33,
    );
    expect(developerScore({ stars: 0, followers: 0, commitsLastYear: 0, publicRepositories: 0 })).toBe(0);
    // Each counter at its half-point gives half of every weight.
    expect(developerScore({ stars: 100, followers: 50, commitsLastYear: 500, publicRepositories: 20 })).toBe(
      50,
    );
  });
});

describe('languageShares', () => {
  const languages = [
    { name: 'TypeScript', color: '#3178c6', bytes: 80_000 },
    { name: 'Python', color: '#3572A5', bytes: 30_000 },
    { name: 'CSS', color: '#663399', bytes: 10_000 },
    { name: 'Shell', color: '#8b949e', bytes: 5_000 },
  ];

  it('gives shares of all bytes and the rest as other', () => {
    const shares = languageShares(languages, 2);
    expect(shares.top.map((language) => [language.name, language.percent])).toEqual([
      ['TypeScript', 64],
      ['Python', 24],
    ]);
    expect(shares.otherPercent).toBeCloseTo(12, 10);
    expect(languageShares(languages, 8).otherPercent).toBeCloseTo(0, 10);
    expect(languageShares([], 3)).toEqual({ top: [], otherPercent: 0, totalBytes: 0 });
  });
});

describe('starMetrics', () => {
  const day = 86_400_000;
  it('counts the last 30 days exactly on a complete history', () => {
    const points: Array<[number, number]> = [
      [0, 1],
      [10 * day, 2],
      [50 * day, 3],
      [55 * day, 4],
      [60 * day, 4],
    ];
    expect(starsAt(points, 29 * day, false)).toBe(2);
    // 30 days before day 60 is day 30: 2 stars then, 4 now -> 2 gained, +100 %.
    expect(starMetrics({ total: 4, points, sampled: false }, 60 * day)).toEqual({
      total: 4,
      lastThirtyDays: 2,
      growthPercent: 100,
    });
  });

  it('interpolates between samples', () => {
    const points: Array<[number, number]> = [
      [0, 1],
      [100 * day, 1001],
    ];
    // Day 70: 1 + 0.7 x 1000 = 701; 1001 - 701 = 300 in the last 30 days.
    expect(starMetrics({ total: 1001, points, sampled: true }, 100 * day).lastThirtyDays).toBe(300);
    expect(starMetrics({ total: 0, points: [[0, 0]], sampled: false }, day).growthPercent).toBeNull();
  });
});

describe('commitHours', () => {
  const times = ['09:15', '09:40', '09:55', '14:05', '23:30'].map((time, index) =>
    Date.parse(`2024-01-1${index}T${time}:00Z`),
  );

  it('bins by hour in the requested time zone', () => {
    const utc = commitHours(times);
    expect(utc.peak).toBe(9);
    expect(utc.hours[9]).toBe(3);
    expect(utc.hours[23]).toBe(1);
    // New York in January is UTC-5.
    const newYork = commitHours(times, 'America/New_York');
    expect(newYork.peak).toBe(4);
    expect([newYork.hours[4], newYork.hours[9], newYork.hours[18]]).toEqual([3, 1, 1]);
    // Paris in January is UTC+1: 23:30 becomes 00:30.
    expect(commitHours(times, 'Europe/Paris').hours[0]).toBe(1);
    expect(commitHours([]).peak).toBeNull();
  });
});

describe('durations', () => {
  it('writes account ages', () => {
    expect(accountAge(Date.parse('2022-05-01T10:00:00Z'), Date.parse('2024-03-15T12:00:00Z'))).toBe(
      '1 year, 10 months, 14 days',
    );
    expect(accountAge(Date.parse('2024-01-31T00:00:00Z'), Date.parse('2024-03-01T00:00:00Z'))).toBe(
      '1 month, 1 day',
    );
    expect(accountAge(Date.parse('2024-03-15T00:00:00Z'), Date.parse('2024-03-15T12:00:00Z'))).toBe('0 days');
    expect(accountAge(Date.parse('2023-03-15T00:00:00Z'), Date.parse('2024-03-15T12:00:00Z'))).toBe('1 year');
  });

  it('writes relative times', () => {
    const now = Date.parse('2024-03-15T12:00:00Z');
    expect(relativeTime(now - 30_000, now)).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(relativeTime(now - 2 * 3_600_000, now)).toBe('2 hours ago');
    expect(relativeTime(now - 26 * 3_600_000, now)).toBe('yesterday');
    expect(relativeTime(now - 4 * 86_400_000, now)).toBe('4 days ago');
    expect(relativeTime(now - 65 * 86_400_000, now)).toBe('2 months ago');
  });
});

describe('contributionGrid', () => {
  it('lays weeks out Sunday first, ending with the week of today', () => {
    // 2024-03-15 is a Friday: the last column runs Sunday 10 March .. Friday 15, then two nulls.
    const grid = contributionGrid([{ date: '2024-03-10', count: 2, level: 1 }], '2024-03-15', 2);
    expect(grid).toHaveLength(2);
    expect(grid[0]?.[0]?.date).toBe('2024-03-03');
    expect(grid[1]?.[0]).toEqual({ date: '2024-03-10', count: 2, level: 1 });
    expect(grid[1]?.[5]?.date).toBe('2024-03-15');
    expect(grid[1]?.[6]).toBeNull();
  });
});
