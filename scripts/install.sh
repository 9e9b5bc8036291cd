#!/usr/bin/env bash
# install.sh sets the machine up (setup.sh), builds bin/gotensor and installs
# the "Go (gotensor)" kernel for Jupyter. Arguments go to `gotensor install`
# (default --user; also --sys-prefix, --prefix DIR, --name N,
# --display-name S). Then start Jupyter: jupyter notebook
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/setup.sh
export PATH="$PATH:/usr/local/go/bin"
go build -o bin/gotensor ./cmd/gotensor
bin/gotensor install "$@"
