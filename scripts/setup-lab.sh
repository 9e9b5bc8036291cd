#!/usr/bin/env bash
# setup-lab.sh sets up `gotensor lab`: scripts/setup.sh installs Debian's
# jupyter_server 1.23 and jupyterlab_server 2.16, Node.js and npm and
# Chromium (for the browser tests), then lab/assemble.sh installs the npm
# packages that lab/package-lock.json pins (JupyterLab 3.6.8's) and builds
# the front end with webpack into $GOTENSOR_LAB_DIR (default
# ~/.cache/gotensor/lab).
#
# Both steps are cached: a second run fetches nothing and builds nothing,
# and works offline. `gotensor lab` runs the second step itself when the
# front end is missing. Exit status 3 means that the npm registry cannot be
# reached and nothing was built before.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/setup.sh
exec lab/assemble.sh "$@"
