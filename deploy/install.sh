#!/usr/bin/env bash
# Installs siteflow on a systemd host: the siteflow user, /opt/siteflow-VERSION (with /opt/siteflow
# pointing at it), the units in /etc/systemd/system, the settings files in /etc/default and the
# site model in /etc/siteflow (settings already there are kept), then `systemctl daemon-reload`.
# Services are neither enabled nor started: edit the settings first.
#
#   install.sh [--dry-run] [--root DIR] [ARCHIVE]
#
# ARCHIVE is a siteflow-VERSION.tar.gz; without it, the unpacked distribution this script sits in
# is copied. --dry-run prints the commands instead of running them (no root needed). --root DIR
# installs below DIR (an image or package being built): no user, no daemon-reload, no root needed.
set -euo pipefail

USER_NAME=siteflow
DRY_RUN=0
ROOT=""
ARCHIVE=""

die() { echo "install.sh: $*" >&2; exit 1; }
usage() { sed -n '7,11p' "$0" | sed 's/^# \{0,1\}//'; }

# Prints a command as a shell would read it, and runs it unless --dry-run.
run() {
  if [ "$DRY_RUN" -eq 1 ]; then
    printf '+'; printf ' %q' "$@"; printf '\n'
  else
    "$@"
  fi
}

# Installs a settings file only when none is there, so that upgrades keep the operator's settings.
install_once() {
  local mode=$1 src=$2 dst=$3
  if [ -e "$dst" ]; then
    echo "install.sh: keeping $dst"
  else
    run install -m "$mode" "$src" "$dst"
  fi
}

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY_RUN=1 ;;
    --root) [ $# -ge 2 ] || { usage >&2; echo "install.sh: --root needs a directory" >&2; exit 64; }
            ROOT=${2%/}; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) usage >&2; echo "install.sh: unknown option: $1" >&2; exit 64 ;;
    *) [ -z "$ARCHIVE" ] || { usage >&2; echo "install.sh: one ARCHIVE only" >&2; exit 64; }
       ARCHIVE=$1 ;;
  esac
  shift
done

PREFIX="$ROOT/opt"
ETC="$ROOT/etc"
UNIT_DIR="$ROOT/etc/systemd/system"

if [ "$DRY_RUN" -eq 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
  die "must run as root (sudo $0 ...), or with --dry-run to see what it would do"
fi

if [ -n "$ARCHIVE" ]; then
  [ -f "$ARCHIVE" ] || die "$ARCHIVE: no such file"
  name=$(basename "$ARCHIVE")
  [[ "$name" =~ ^siteflow-(.+)\.tar\.gz$ ]] || die "$ARCHIVE: not a siteflow-VERSION.tar.gz"
  version=${BASH_REMATCH[1]}
else
  here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
  if [ ! -x "$here/bin/siteflow" ] || [ ! -d "$here/lib" ]; then
    die "no ARCHIVE given and $here is not an unpacked distribution (no bin/siteflow and lib/)"
  fi
  name=$(basename "$here")
  [[ "$name" =~ ^siteflow-(.+)$ ]] || die "$here: directory is not named siteflow-VERSION"
  version=${BASH_REMATCH[1]}
fi
home="$PREFIX/siteflow-$version"

# 1. the system user that every unit runs as
if [ -n "$ROOT" ]; then
  echo "install.sh: --root: create the user $USER_NAME in the target (useradd --system $USER_NAME)"
elif getent passwd "$USER_NAME" >/dev/null 2>&1; then
  echo "install.sh: user $USER_NAME exists"
else
  run useradd --system --user-group --home-dir /var/lib/siteflow --no-create-home \
    --shell /usr/sbin/nologin --comment "siteflow services" "$USER_NAME"
fi

# 2. the distribution, then the stable path the units use
run install -d -m 0755 "$PREFIX"
if [ -n "$ARCHIVE" ]; then
  run tar -xzf "$ARCHIVE" -C "$PREFIX" --no-same-owner
else
  run cp -a "$here" "$home"
fi
# relative, so that the link holds below --root too
run ln -sfn "siteflow-$version" "$PREFIX/siteflow"

# 3. settings: the site model and one file per service
run install -d -m 0755 "$ETC/siteflow" "$ETC/default" "$UNIT_DIR"
install_once 0644 "$home/conf/sites.yaml" "$ETC/siteflow/sites.yaml"
for svc in agent processor broker; do
  install_once 0644 "$home/conf/$svc.env" "$ETC/default/siteflow-$svc"
done

# 4. the units (siteflow-agent-ebpf reads siteflow-agent's settings file)
for svc in agent agent-ebpf processor broker; do
  run install -m 0644 "$home/systemd/siteflow-$svc.service" "$UNIT_DIR/siteflow-$svc.service"
done
if [ -n "$ROOT" ]; then
  echo "install.sh: --root: no systemctl daemon-reload"
else
  run systemctl daemon-reload
fi

done_word=installed
[ "$DRY_RUN" -eq 0 ] || done_word="would be installed (dry run: nothing changed)"
cat <<NEXT
install.sh: siteflow $version $done_word in $home ($PREFIX/siteflow)
Next: edit $ETC/default/siteflow-agent (IFACE, FILTER, BOOTSTRAP) and $ETC/siteflow/sites.yaml, check the
model with '$PREFIX/siteflow/bin/siteflow rules check $ETC/siteflow/sites.yaml', then for example:
  systemctl enable --now siteflow-agent
NEXT
