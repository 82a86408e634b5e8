#!/usr/bin/env bash
# Makes the image's base where no registry answers: a Debian bookworm minbase with the Java 17 runtime, libpcap
# and libbpf, from the mirror apt already uses, trimmed (apt lists and caches, docs, man pages, locales) and
# imported into podman as $1 (default localhost/siteflow-base:bookworm). Needs root and debootstrap; ~3 min.
#   deploy/image/base.sh [IMAGE] [WORK_DIR]   (WORK_DIR: default a new directory under /var/tmp, removed once the
#   base is made; the unpacked tree is always removed, debootstrap's log stays when it failed)
set -euo pipefail

IMAGE=${1:-localhost/siteflow-base:bookworm}
OWN_WORK=''
if [ -z "${2:-}" ]; then
  WORK=$(mktemp -d /var/tmp/siteflow-base.XXXXXX)
  OWN_WORK=1
else
  WORK=$2
fi
PACKAGES=openjdk-17-jre-headless,libpcap0.8,libbpf1

# The first bookworm mirror in apt's sources (deb822 .sources files or one-line .list files).
mirror() {
  local f uri
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    uri=$(awk '/^Types:.*deb( |$)/{d=1} /^$/{d=0} d && /^URIs:/{print $2; exit}' "$f")
    [ -n "$uri" ] && grep -q '^Suites:.*bookworm\( \|$\)' "$f" && { echo "$uri"; return; }
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    uri=$(awk '$1 == "deb" && $0 ~ / bookworm / {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' "$f")
    [ -n "$uri" ] && { echo "$uri"; return; }
  done
  echo "https://deb.debian.org/debian"
}

MIRROR=$(mirror)
ROOTFS="$WORK/rootfs"
# debootstrap mounts proc and sys in the tree while it installs: unmounted before anything is removed
cleanup() {
  local m
  for m in "$ROOTFS/proc" "$ROOTFS/sys"; do
    if mountpoint -q "$m" 2>/dev/null; then umount -l "$m"; fi
  done
  rm -rf --one-file-system "$ROOTFS"
}
trap cleanup EXIT
echo "siteflow image: debootstrap bookworm from $MIRROR into $ROOTFS (a few minutes)" >&2
debootstrap --variant=minbase --include="$PACKAGES" bookworm "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 || {
  tail -n 20 "$WORK/debootstrap.log" >&2
  echo "siteflow image: debootstrap failed; log in $WORK/debootstrap.log" >&2
  exit 1
}
echo "siteflow image: trimming apt caches, docs and locales" >&2
chroot "$ROOTFS" apt-get clean
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/* "$ROOTFS"/var/cache/debconf/*-old \
  "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/info/* \
  "$ROOTFS"/var/log/* "$ROOTFS"/tmp/* "$ROOTFS"/var/tmp/*
find "$ROOTFS"/usr/share/locale -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} +
echo "siteflow image: importing $IMAGE" >&2
tar -C "$ROOTFS" -c . | podman import --change 'CMD ["/bin/bash"]' - "$IMAGE" >/dev/null
echo "siteflow image: base $IMAGE ready ($(podman image inspect --format '{{.Size}}' "$IMAGE") bytes)" >&2
# a directory of its own goes once the base is made (its log stays when something failed)
if [ -n "$OWN_WORK" ]; then rm -rf --one-file-system "$WORK"; fi
