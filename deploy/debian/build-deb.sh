#!/usr/bin/env bash
# Builds siteflow_VERSION_all.deb from the distribution archive (deploy/target/siteflow-VERSION.tar.gz) with
# dpkg-deb, no debhelper: OPERATIONS.md, "Debian package", lists what goes where. gzip, not xz: the jars are
# compressed already (xz saves little and takes minutes).
#
#   build-deb.sh [--version DEBVERSION] ARCHIVE OUTDIR
#
# DEBVERSION defaults to the archive's version with "-" made "~" (0.1.0-SNAPSHOT -> 0.1.0~SNAPSHOT, which sorts
# before the release 0.1.0). Prints the path of the package. Needs dpkg-deb (package dpkg), tar, gzip, md5sum.
set -euo pipefail

die() { echo "build-deb.sh: $*" >&2; exit 1; }
usage() { grep -m1 '^#   build-deb.sh' "$0" | sed 's/^# *//'; }

HERE=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
VERSION=""
while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || { usage >&2; echo "build-deb.sh: --version needs a value" >&2; exit 64; }
               VERSION=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) usage >&2; echo "build-deb.sh: unknown option: $1" >&2; exit 64 ;;
    *) break ;;
  esac
  shift
done
[ $# -eq 2 ] || { usage >&2; exit 64; }
ARCHIVE=$1
OUT=$2
[ -f "$ARCHIVE" ] || die "$ARCHIVE: no such file"
name=$(basename "$ARCHIVE")
[[ "$name" =~ ^siteflow-(.+)\.tar\.gz$ ]] || die "$ARCHIVE: not a siteflow-VERSION.tar.gz"
upstream=${BASH_REMATCH[1]}
VERSION=${VERSION:-${upstream//-/\~}}
[[ "$VERSION" =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || die "$VERSION: not a Debian version"
command -v dpkg-deb >/dev/null || die "dpkg-deb not found (Debian package dpkg)"
mkdir -p "$OUT"

work=$(mktemp -d "${TMPDIR:-/tmp}/siteflow-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -xzf "$ARCHIVE" -C "$work"
dist="$work/siteflow-$upstream"
[ -x "$dist/bin/siteflow" ] && [ -d "$dist/lib" ] || die "$ARCHIVE: no bin/siteflow and lib/ in siteflow-$upstream/"
root="$work/root"
umask 022

# the distribution's home: launcher, jars; conf/ is /etc/siteflow
install -d "$root/usr/share/siteflow/bin" "$root/usr/share/siteflow/lib" "$root/usr/bin"
install -m 0755 "$dist/bin/siteflow" "$dist/bin/jvm-options.sh" "$root/usr/share/siteflow/bin/"
install -m 0644 "$dist"/lib/*.jar "$root/usr/share/siteflow/lib/"
ln -s /etc/siteflow "$root/usr/share/siteflow/conf"
install -m 0755 "$HERE/siteflow" "$root/usr/bin/siteflow"

# configuration: conffiles
install -d "$root/etc/siteflow" "$root/etc/default"
install -m 0644 "$dist/conf/sites.yaml" "$dist/conf/logback.xml" "$root/etc/siteflow/"
for role in agent processor broker; do
  install -m 0644 "$dist/conf/$role.env" "$root/etc/default/siteflow-$role"
done

# the units of deploy/systemd with the package's paths
install -d "$root/lib/systemd/system"
for unit in "$dist"/systemd/*.service; do
  sed -e 's#/opt/siteflow/bin/siteflow#/usr/bin/siteflow#g' \
      -e 's#file:/opt/siteflow/OPERATIONS.md#file:/usr/share/doc/siteflow/OPERATIONS.md#' \
      -e 's#(ProtectSystem=strict leaves /opt read-only)#(ProtectSystem=strict leaves /usr read-only)#' \
      "$unit" > "$root/lib/systemd/system/$(basename "$unit")"
  chmod 0644 "$root/lib/systemd/system/$(basename "$unit")"
done
if grep -l /opt/siteflow "$root"/lib/systemd/system/*.service; then
  die "a unit above still names /opt/siteflow"
fi

# documentation and the samples that are not configuration as shipped (TLS/SASL client properties)
install -d "$root/usr/share/doc/siteflow/examples"
install -m 0644 "$dist/OPERATIONS.md" "$root/usr/share/doc/siteflow/"
install -m 0644 "$dist"/conf/*.properties "$root/usr/share/doc/siteflow/examples/"
install -m 0644 "$HERE/copyright" "$root/usr/share/doc/siteflow/copyright"
printf 'siteflow (%s) unstable; urgency=medium\n\n  * Built from siteflow-%s.tar.gz.\n\n -- siteflow developers <siteflow@example.net>  %s\n' \
  "$VERSION" "$upstream" "$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}")" \
  | gzip -9n > "$root/usr/share/doc/siteflow/changelog.Debian.gz"

# control files
install -d "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@INSTALLED_SIZE@/$size/" "$HERE/control" > "$root/DEBIAN/control"
(cd "$root" && find etc -type f | sort | sed 's#^#/#') > "$root/DEBIAN/conffiles"
(cd "$root" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -print | sed 's#^\./##' | sort \
  | xargs md5sum) > "$root/DEBIAN/md5sums"
for script in postinst prerm postrm; do
  install -m 0755 "$HERE/$script" "$root/DEBIAN/$script"
done
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

deb="$OUT/siteflow_${VERSION}_all.deb"
dpkg-deb --root-owner-group -Zgzip --build "$root" "$deb" >/dev/null
echo "$deb"
