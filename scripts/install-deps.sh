#!/usr/bin/env bash
# Installs what spellcheck needs from Debian's packages, skipping what is
# already there. Needs root (or sudo) for apt-get.
#   install-deps.sh           everything; Slurm's failure only warns (its
#                             tests skip then)
#   install-deps.sh --slurm   only Slurm and munge (scripts/slurm-local)
set -euo pipefail
# The Slurm tests' own cluster (scripts/slurm-local): slurmctld, slurmd,
# clients and munge; srun --mpi=pmix needs the PMIx library.
slurm_packages=(slurm-wlm slurmctld slurmd slurm-client munge libpmix-dev)

# install_missing PACKAGE...: apt-get install of those not installed yet. Without
# systemd the packages' postinst would start the stock daemons (slurmctld,
# munged) from /etc: a policy-rc.d that says no keeps them off meanwhile.
install_missing() {
  local missing=() p made_policy=0 status=0
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "install-deps: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null &&
      $sudo chmod 755 /usr/sbin/policy-rc.d && made_policy=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  { $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" 2>/dev/null ||
    { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; } ||
    status=1
  [ "$made_policy" = 0 ] || $sudo rm -f /usr/sbin/policy-rc.d
  return $status
}

if [ "${1:-}" = --slurm ]; then
  install_missing "${slurm_packages[@]}"
  exit
fi
packages=(build-essential cmake pkg-config libopenmpi-dev openmpi-bin libtbb-dev libxxhash-dev doctest-dev
          zlib1g-dev libzstd-dev libbz2-dev liblzma-dev gzip zstd bzip2 xz-utils wamerican-insane python3 python3-matplotlib
          python3-pytest hunspell hunspell-en-us libicu-dev libmd4c-dev
          libsimdjson-dev)
# Hunspell dictionaries: six languages' dictionaries and translated man
# pages (their prose) for the tests, libhunspell as the tests' oracle.
packages+=(libhunspell-dev hunspell-de-de hunspell-fr hunspell-es hunspell-ru hunspell-nl hunspell-sv
           manpages-de manpages-fr manpages-es manpages-ru manpages-nl manpages-sv)
# Markup filters' tests: real HTML (the Debian Reference's manual); their
# real Markdown comes with zstd, libzstd-dev and libxxhash-dev.
packages+=(debian-reference-en)
# The TeX filter's tests read a real LaTeX book (the C++ Annotations).
packages+=(c++-annotations-latex)
# Fuzzing (fuzz/, bench/fuzz.sh): clang with libFuzzer; libomp for OpenMP
# under clang.
packages+=(clang libomp-dev)
# Style and lint checks of scripts/test.sh (.clang-format, .clang-tidy);
# Universal Ctags for the structure tests (scripts/long-functions).
packages+=(clang-format clang-tidy universal-ctags)
install_missing "${packages[@]}"
install_missing "${slurm_packages[@]}" ||
  echo "install-deps: WARNING: Slurm and munge could not be installed: the Slurm tests will skip"
echo "install-deps: done"
