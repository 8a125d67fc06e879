/**
 * @module The GitHub API base URL as configured, without its trailing slashes (a loop, not
 * `/\/+$/`, which backtracks quadratically on a long run of slashes).
 */

/** `https://ghe.example/api/v3///` → `https://ghe.example/api/v3`. */
export function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}
