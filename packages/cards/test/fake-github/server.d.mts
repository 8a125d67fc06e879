/**
 * @module Types of the fake GitHub server (written in JavaScript so the benchmark can start it too).
 */
export interface FakeRequest {
  kind: 'graphql' | 'rest';
  key: string;
  token: string;
  status: number;
}

export interface FakeSwitches {
  delayMs: number;
  failNext: number;
  down: boolean;
  limitedTokens: Set<string>;
  secondaryLimitTokens: Set<string>;
  secondaryRetryAfter: number | null;
}

export interface FakeGitHub {
  url: string;
  switches: FakeSwitches;
  requests: FakeRequest[];
  count(prefix: string): number;
  reset(): void;
  close(): Promise<void>;
}

export function startFakeGitHub(
  fixtures: { users: readonly object[] },
  options?: { now?: () => number; requireToken?: boolean },
): Promise<FakeGitHub>;
