#!/bin/sh
# install-deps.sh -- installs, as root on Debian 12, every package that
# ompcluster needs to build, test and benchmark; installs nothing already there.
# `install-deps.sh slurm` installs instead what `make check-slurm` needs:
# Slurm's controller, node daemon and clients, and munge.
set -e
pkgs="gcc g++ gfortran make autoconf cmake pkg-config gcc-12-plugin-dev mpich libmpich-dev \
 libhwloc-dev hwloc dejagnu gcc-12-source libomp-14-dev iproute2 util-linux procps"
[ "${1:-}" = slurm ] && pkgs="slurm-wlm slurm-client munge"
missing=
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends $missing
fi
