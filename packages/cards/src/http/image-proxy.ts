/**
 * @module Recognizes GitHub's image proxy (camo), which fetches every README image from a few
 * addresses for all of GitHub's readers. It is told by its User-Agent, not its address: behind
 * a CDN or reverse proxy an instance never sees GitHub's addresses.
 */

/**
 * True when `request` says it comes from GitHub's image proxy (`User-Agent: github-camo (...)`).
 * Anyone can send that header, so it only ever lifts per-client limits, never the global budget.
 */
export function isGithubImageProxy(request: Request): boolean {
  return request.headers.get('user-agent')?.startsWith('github-camo (') ?? false;
}
