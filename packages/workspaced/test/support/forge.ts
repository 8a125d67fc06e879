/**
 * @module The forge side of the pull request tests: a bare repository on disk as a project's
 * `origin`, and a stand-in `gh` (the real one needs GitHub). The stand-in's `auth status`
 * answers from a marker file (`<state>/signed-in`); `pr create` checks that the branch reached
 * the remote, records its arguments (`<state>/pr-args`) and working directory (`<state>/pr-cwd`)
 * and prints a fixed URL.
 */
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { git } from './git-repo.js';
import { scratchDir } from './scratch.js';

/** The URL every stand-in `pr create` prints. */
export const standInPullRequestUrl = 'https://github.example/acme/project/pull/7';

const standInGh = (state: string) => `#!/bin/sh
if [ "$1 $2" = "auth status" ]; then
  [ -f "${state}/signed-in" ] && exit 0
  echo "You are not logged into any GitHub hosts." >&2; exit 1
fi
if [ "$1 $2" = "pr create" ]; then
  [ "$3" = "--head" ] || exit 2
  git ls-remote --exit-code origin "refs/heads/$4" >/dev/null || { echo "branch not pushed" >&2; exit 3; }
  for arg in "$@"; do printf '%s\\n' "$arg"; done > "${state}/pr-args"
  pwd > "${state}/pr-cwd"
  echo "Creating pull request for $4 into $6"
  echo "${standInPullRequestUrl}"
  exit 0
fi
exit 9
`;

/** Writes the stand-in `gh` into `binDir` (a folder on the daemon's PATH); returns it and its state folder. */
export async function installStandInGh(binDir: string, signedIn: boolean) {
  const gh = path.join(binDir, 'gh');
  const state = await scratchDir('gh');
  await writeFile(gh, standInGh(state));
  await chmod(gh, 0o755);
  if (signedIn) await writeFile(path.join(state, 'signed-in'), '');
  return { gh, state };
}

/** A new bare repository added to `projectDir` as `origin`; returns its path. */
export async function addBareOrigin(projectDir: string): Promise<string> {
  const remote = path.join(await scratchDir('remote'), 'remote.git');
  git(projectDir, 'init', '-q', '--bare', remote);
  git(projectDir, 'remote', 'add', 'origin', remote);
  return remote;
}
