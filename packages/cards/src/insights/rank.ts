/**
 * @module The grade of /stats: github-readme-stats' published rank formula (weighted CDFs of
 * each counter divided by its median), so grades match what users know.
 */

interface RankInputs {
  /** True when `commits` counts every year (median 1,000 instead of 250). */
  allCommits: boolean;
  commits: number;
  pullRequests: number;
  issues: number;
  reviews: number;
  stars: number;
  followers: number;
}

type RankLevel = 'S' | 'A+' | 'A' | 'A-' | 'B+' | 'B' | 'B-' | 'C+' | 'C';

export interface Rank {
  level: RankLevel;
  /** 0 (best) to 100: the share of users assumed ahead. */
  percentile: number;
}

const exponentialCdf = (x: number) => 1 - 2 ** -x;
const logNormalCdf = (x: number) => x / (1 + x);

const thresholds = [1, 12.5, 25, 37.5, 50, 62.5, 75, 87.5, 100] as const;
const levels: readonly RankLevel[] = ['S', 'A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C'];

export function calculateRank(inputs: RankInputs): Rank {
  const terms = [
    { weight: 2, cdf: exponentialCdf, value: inputs.commits / (inputs.allCommits ? 1000 : 250) },
    { weight: 3, cdf: exponentialCdf, value: inputs.pullRequests / 50 },
    { weight: 1, cdf: exponentialCdf, value: inputs.issues / 25 },
    { weight: 1, cdf: exponentialCdf, value: inputs.reviews / 2 },
    { weight: 4, cdf: logNormalCdf, value: inputs.stars / 50 },
    { weight: 1, cdf: logNormalCdf, value: inputs.followers / 10 },
  ];
  const totalWeight = terms.reduce((sum, term) => sum + term.weight, 0);
  const score = terms.reduce((sum, term) => sum + term.weight * term.cdf(term.value), 0);
  const percentile = (1 - score / totalWeight) * 100;
  const index = thresholds.findIndex((threshold) => percentile <= threshold);
  return { level: levels[index === -1 ? levels.length - 1 : index] ?? 'C', percentile };
}
