/**
 * @module The developer score of /views: a transparent 0-100 score. Each counter is squashed by
 * x / (x + half), where `half` is the value worth half its points, then weighted:
 * stars 40 (half at 100), followers 30 (half at 50), commits of the last year 20 (half at 500),
 * public repositories 10 (half at 20).
 */

interface DeveloperScoreInputs {
  stars: number;
  followers: number;
  commitsLastYear: number;
  publicRepositories: number;
}

const terms: ReadonlyArray<{ key: keyof DeveloperScoreInputs; points: number; half: number }> = [
  { key: 'stars', points: 40, half: 100 },
  { key: 'followers', points: 30, half: 50 },
  { key: 'commitsLastYear', points: 20, half: 500 },
  { key: 'publicRepositories', points: 10, half: 20 },
];

export function developerScore(inputs: DeveloperScoreInputs): number {
  const score = terms.reduce((sum, term) => {
    const value = Math.max(0, inputs[term.key]);
    return sum + (term.points * value) / (value + term.half);
  }, 0);
  return Math.round(score);
}
