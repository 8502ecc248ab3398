#!/usr/bin/env bash
# Installs what spellcheck needs from Debian's packages, skipping what is
# already there. Needs root (or sudo) for apt-get.
set -euo pipefail
packages=(build-essential cmake pkg-config libopenmpi-dev openmpi-bin libtbb-dev libxxhash-dev doctest-dev
          zlib1g-dev libzstd-dev libbz2-dev liblzma-dev gzip zstd bzip2 xz-utils wamerican-insane python3 python3-matplotlib
          python3-pytest hunspell hunspell-en-us)
# Slurm tests: slurm-local installs slurm-wlm and munge itself; srun --mpi=pmix
# needs the PMIx library.
packages+=(libpmix-dev)
# Fuzzing (fuzz/, bench/fuzz.sh): clang with libFuzzer; libomp for OpenMP
# under clang.
packages+=(clang libomp-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
