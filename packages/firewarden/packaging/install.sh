#!/bin/sh
# Installs firewarden on a Debian-like host: system user and group `firewarden`, /etc/firewarden
# with a default config (0640), /var/lib/firewarden, /var/log/firewarden, the release under
# /opt/firewarden, /usr/bin/firewarden, the two systemd units; enables and starts them when
# systemd runs. Never runs iptables, ufw or nft: existing firewall rules are left as they are.
# Idempotent: a second run changes nothing that is already in place (the config is never
# overwritten). Usage: install.sh [--release DIR] [--prefix DIR] [--dry-run] [--no-start]
set -eu
# Files are created readable by the service and writable by root only, whatever umask sudo passes
# on (each folder and file is then given its own mode below).
umask 022

here=$(cd "$(dirname "$0")" && pwd)
release_src=$(cd "$here/.." && pwd)
prefix=/
dry_run=0
start=1

usage() {
  cat <<USAGE
usage: install.sh [--release DIR] [--prefix DIR] [--dry-run] [--no-start]
  --release DIR  a built firewarden release: dist/cli.js, package.json, node_modules (default: $release_src)
  --prefix DIR   install under DIR instead of / (users go to DIR/etc/passwd; systemd is not called)
  --dry-run      print what would be done, change nothing
  --no-start     install and enable the units but do not start them
USAGE
}

while [ $# -gt 0 ]; do
  case "$1" in
    --release) release_src=$(cd "${2:?--release needs a folder}" && pwd); shift 2 ;;
    --prefix) prefix=${2:?--prefix needs a folder}; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    --no-start) start=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (it creates a system user and writes /etc, /var and /opt)" >&2
  exit 1
fi
for file in dist/cli.js package.json; do
  if [ ! -f "$release_src/$file" ]; then
    echo "install.sh: $release_src is not a firewarden release (no $file); build it first" >&2
    exit 2
  fi
done
if ! command -v node >/dev/null 2>&1; then
  echo "install.sh: firewarden needs Node.js 20.19 or later (apt-get install nodejs)" >&2
  exit 2
fi
version=$(node -e 'process.stdout.write(String(require(process.argv[1]).version))' "$release_src/package.json")
case "$version" in
  ''|*[!0-9A-Za-z.+-]*) echo "install.sh: cannot read a version from $release_src/package.json" >&2; exit 2 ;;
esac

root=${prefix%/}
user_prefix=""
[ -n "$root" ] && user_prefix="--prefix $root"

# Every change goes through `run`: printed under --dry-run, executed otherwise.
run() {
  if [ "$dry_run" -eq 1 ]; then echo "would run: $*"; else "$@"; fi
}
say() { echo "firewarden install: $*"; }

# 1. System group and user (no login shell, no home of its own).
if ! grep -q '^firewarden:' "$root/etc/group" 2>/dev/null; then
  say "creating system group firewarden"
  run groupadd --system $user_prefix firewarden
fi
if ! grep -q '^firewarden:' "$root/etc/passwd" 2>/dev/null; then
  say "creating system user firewarden"
  run useradd --system $user_prefix --gid firewarden --home-dir /var/lib/firewarden \
    --no-create-home --shell /usr/sbin/nologin --comment "firewarden server" firewarden
fi

# 2. Folders: config readable by the service group only; data and logs owned by the service.
directory() { # path mode owner
  if [ ! -d "$root$1" ]; then say "creating $1"; run mkdir -p "$root$1"; fi
  run chmod "$2" "$root$1"
  if [ -z "$root" ]; then run chown "$3" "$1"; else run chown "$(numeric_owner "$3")" "$root$1"; fi
}
# Under --prefix the names live in the prefix's passwd/group files, not the host's.
numeric_owner() {
  user=${1%%:*}; group=${1#*:}
  uid=$(awk -F: -v n="$user" '$1 == n { print $3 }' "$root/etc/passwd" 2>/dev/null)
  gid=$(awk -F: -v n="$group" '$1 == n { print $3 }' "$root/etc/group" 2>/dev/null)
  echo "${uid:-0}:${gid:-0}"
}
directory /etc/firewarden 0750 root:firewarden
directory /var/lib/firewarden 0750 firewarden:firewarden
directory /var/log/firewarden 0750 firewarden:firewarden
directory /var/lib/firewarden-agent 0700 root:root
directory /opt/firewarden/releases 0755 root:root

config="$root/etc/firewarden/config.yaml"
if [ ! -f "$config" ]; then
  say "writing /etc/firewarden/config.yaml (defaults; edit and restart to change)"
  if [ "$dry_run" -eq 0 ]; then
    cat >"$config" <<'CONFIG'
# firewarden configuration: every key and default is in the README (Configuration).
server:
  bind: 127.0.0.1
  port: 7443
database:
  driver: sqlite
  sqlite_path: /var/lib/firewarden/firewarden.db
logging:
  file_path: /var/log/firewarden/firewarden.log
firewall:
  backend: auto
update:
  enabled: false
CONFIG
  fi
fi
run chmod 0640 "$config"
if [ -z "$root" ]; then run chown root:firewarden "$config"; else run chown "$(numeric_owner root:firewarden)" "$config"; fi

# 3. The release, side by side with earlier ones; `current` names the running one (updates swap it).
# The root agent runs this code: it is owned by root and writable by nobody else, whoever built or
# owns the source folder. It is copied into a root-only staging folder, given its owner and modes
# there, and renamed into place, so no one else ever sees (or opens for writing) a file that is not
# yet root's. A release left by an earlier installer keeps the owner it had: the same is applied.
target="/opt/firewarden/releases/$version"
secure_release() { # path
  run chown -R -h 0:0 "$1"
  run chmod -R go-w "$1"
}
if [ ! -d "$root$target" ]; then
  say "installing release $version into $target (owned by root, writable only by root)"
  staging="$root/opt/firewarden/releases/.$version.installing"
  run rm -rf "$staging"
  run mkdir -m 0700 "$staging"
  run cp -R --no-preserve=ownership "$release_src/." "$staging"
  secure_release "$staging"
  run chmod 0755 "$staging"
  run mv "$staging" "$root$target"
else
  secure_release "$root$target"
fi
# Relative links, so an installation under --prefix points into itself.
run ln -sfn "releases/$version" "$root/opt/firewarden/current"
[ -d "$root/usr/bin" ] || run mkdir -p "$root/usr/bin"
run ln -sfn ../../opt/firewarden/current/dist/cli.js "$root/usr/bin/firewarden"

# 4. systemd units: server unprivileged, agent privileged.
[ -d "$root/etc/systemd/system" ] || run mkdir -p "$root/etc/systemd/system"
for unit in firewarden-agent.service firewarden.service; do
  run install -m 0644 "$here/systemd/$unit" "$root/etc/systemd/system/$unit"
done
if [ -z "$root" ] && [ -d /run/systemd/system ]; then
  run systemctl daemon-reload
  if [ "$start" -eq 1 ]; then
    run systemctl enable --now firewarden-agent.service firewarden.service
  else
    run systemctl enable firewarden-agent.service firewarden.service
  fi
else
  say "systemd is not running here (or --prefix was given): units installed, not started"
fi

say "done. Next: FIREWARDEN_ADMIN_PASSWORD='<12+ characters>' firewarden user create-admin, then open http://127.0.0.1:7443/"
