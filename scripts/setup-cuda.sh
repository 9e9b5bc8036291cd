#!/usr/bin/env bash
# setup-cuda.sh installs the CUDA toolkit that gotensor's CUDA build and CI
# use: Debian 12's nvidia-cuda-toolkit (CUDA 11.8: nvcc, cuda.h, cuBLAS),
# from the contrib and non-free components, which it enables when missing.
# It does not install a GPU driver.
#
# Idempotent: with the toolkit installed it changes nothing. Run it as
# root, or as a user with sudo.
set -euo pipefail

say() { printf 'setup-cuda: %s\n' "$*" >&2; }

sudo=()
if ((EUID != 0)); then
	if ! command -v sudo >/dev/null; then
		say "not root and no sudo: run this script as root"
		exit 1
	fi
	sudo=(sudo)
fi

if [[ "$(dpkg-query -W -f='${db:Status-Status}' nvidia-cuda-toolkit 2>/dev/null)" == installed ]]; then
	say "nvidia-cuda-toolkit is installed: $(nvcc --version | grep release || true)"
	exit 0
fi

# Enable contrib and non-free (deb822 sources on Debian 12, or the classic
# sources.list).
deb822=/etc/apt/sources.list.d/debian.sources
if [[ -f "$deb822" ]]; then
	# "non-free-firmware" is not "non-free": match whole words only.
	if ! grep -Eq '^Components:(.* )?contrib( |$)' "$deb822" || ! grep -Eq '^Components:(.* )?non-free( |$)' "$deb822"; then
		say "enabling contrib non-free in $deb822"
		"${sudo[@]}" sed -i -E '/^Components:/{/ contrib( |$)/!s/$/ contrib/;/ non-free( |$)/!s/$/ non-free/}' "$deb822"
	fi
elif [[ -f /etc/apt/sources.list ]]; then
	if ! grep -Eq '^deb .* contrib( |$)' /etc/apt/sources.list || ! grep -Eq '^deb .* non-free( |$)' /etc/apt/sources.list; then
		say "enabling contrib non-free in /etc/apt/sources.list"
		"${sudo[@]}" sed -i -E '/^deb /{/ contrib( |$)/!s/$/ contrib/;/ non-free( |$)/!s/$/ non-free/}' /etc/apt/sources.list
	fi
else
	say "no apt sources found (/etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list)"
	exit 1
fi

apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q)
"${apt[@]}" update
"${apt[@]}" install -y --no-install-recommends nvidia-cuda-toolkit
say "installed: $(nvcc --version | grep release || true)"
