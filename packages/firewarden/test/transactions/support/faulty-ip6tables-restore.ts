/**
 * @module Test support: injects real failures into the sandbox's IPv6 write, the second of an
 * apply (IPv4 is already live and must be undone). Every iptables-nft tool is a link to
 * `xtables-nft-multi`; a script bind-mounted over it in the sandbox runs a private copy of the
 * real program, except that a non-`--test` `ip6tables-nft-restore` whose input holds
 * `--dport <refusePort>` exits 1 (the tool refuses the write after its dry run passed), and one
 * holding `--dport <racePort>` is carried out and then another writer appends a rule to our
 * chain (so the rules read back differ from those applied). The rollback's input names neither
 * port, so it goes through.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Sandbox } from '../../backends/support/sandbox.js';

export const injectedRefusal = 'ip6tables-nft-restore: injected refusal';

export function withFaultyIp6tablesRestore(
  sandbox: Sandbox,
  ports: { refusePort: number; racePort: number; raceRulePort: number },
): void {
  const real = path.join(sandbox.folder, 'xtables-nft-multi.real');
  copyFileSync('/usr/sbin/xtables-nft-multi', real);
  const script = path.join(sandbox.folder, 'xtables-nft-multi.faulty');
  // $0 is the link the tool was run as; the multi-call copy takes that name as its first argument.
  writeFileSync(
    script,
    `#!/bin/sh
name=$(basename "$0")
real='${real}'
if [ "$name" != ip6tables-nft-restore ]; then exec "$real" "$name" "$@"; fi
case " $* " in *" --test "*) exec "$real" "$name" "$@" ;; esac
input=$(cat)
case "$input" in *"--dport ${ports.refusePort} "*) echo '${injectedRefusal}' >&2; exit 1 ;; esac
printf '%s\\n' "$input" | "$real" "$name" "$@" || exit $?
case "$input" in *"--dport ${ports.racePort} "*)
  exec "$real" ip6tables-nft -A FIREWARDEN-INPUT -p tcp --dport ${ports.raceRulePort} -j DROP ;;
esac
`,
    { mode: 0o755 },
  );
  sandbox.binds.push([script, '/usr/sbin/xtables-nft-multi']);
}
