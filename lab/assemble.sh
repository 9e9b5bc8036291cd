#!/usr/bin/env bash
# assemble.sh builds the JupyterLab front end that `gotensor lab` serves.
#
#	lab/assemble.sh [DIR]
#
# It copies the sources next to it (package.json, package-lock.json,
# webpack.config.js, index.js, templates/, gotensor_lab.py) into DIR,
# installs the npm packages that package-lock.json pins with `npm ci` and
# builds DIR/build with webpack. DIR defaults to $GOTENSOR_LAB_DIR, else
# ~/.cache/gotensor/lab ($XDG_CACHE_HOME/gotensor/lab).
#
# It is cached: DIR/build.stamp records the hash of the sources and of the
# bundle they built, and when both still match nothing is fetched or built,
# so a second run is quick and offline. When only the bundle is missing or
# changed, node_modules is kept if it was installed from the same lock.
#
# Exit status: 0 when DIR/build is current; 3 when the npm registry cannot
# be reached and there is nothing cached to build from (the tests skip on
# it); 1 on any other failure.
set -euo pipefail

src="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="${1:-${GOTENSOR_LAB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gotensor/lab}}"
sources=(package.json package-lock.json webpack.config.js index.js templates/index.html gotensor_lab.py assemble.sh)
# The files the bundle is built from.
inputs=(package.json package-lock.json webpack.config.js index.js)

say() { printf 'lab: %s\n' "$*" >&2; }

for tool in node npm; do
	if ! command -v "$tool" >/dev/null; then
		say "$tool is missing: run scripts/setup-lab.sh, or install Debian's nodejs and npm (apt-get install nodejs npm)"
		exit 1
	fi
done

mkdir -p "$dir/templates"
dir="$(cd "$dir" && pwd)"
# One assembly at a time in a directory: a second waits for the first, then
# finds its build current.
exec 9>"$dir/.assemble.lock"
flock 9
if [[ "$src" != "$dir" ]]; then
	for f in "${sources[@]}"; do
		cmp -s "$src/$f" "$dir/$f" || cp "$src/$f" "$dir/$f"
	done
fi
cd "$dir"

want="$(cat "${inputs[@]}" | sha256sum | cut -d' ' -f1)"
bundle() { sha256sum build/bundle.js 2>/dev/null | cut -d' ' -f1; }
if [[ -f build.stamp && "$(cat build.stamp)" == "sources $want bundle $(bundle)" ]]; then
	exit 0
fi

start=$SECONDS
lock="$(sha256sum package-lock.json | cut -d' ' -f1)"
# node_modules/.gotensor-lock records the hash of the lock that npm ci last
# installed completely.
if [[ "$(cat node_modules/.gotensor-lock 2>/dev/null)" != "$lock" ]]; then
	say "installing JupyterLab's npm packages from package-lock.json into $dir/node_modules"
	log="$(mktemp)"
	trap 'rm -f "$log"' EXIT
	if ! npm ci --no-audit --no-fund --ignore-scripts --prefer-offline >"$log" 2>&1; then
		cat "$log" >&2
		if grep -qE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network' "$log"; then
			say "the npm registry cannot be reached and $dir holds no complete install: JupyterLab cannot be assembled offline the first time"
			exit 3
		fi
		say "npm ci failed (output above)"
		exit 1
	fi
	echo "$lock" >node_modules/.gotensor-lock
fi

say "building the front end with webpack into $dir/build (a few minutes the first time)"
rm -rf build
if ! node node_modules/webpack-cli/bin/cli.js --no-color >build.log 2>&1; then
	tail -n 40 build.log >&2
	say "webpack failed: the whole log is $dir/build.log"
	exit 1
fi
echo "sources $want bundle $(bundle)" >build.stamp
say "JupyterLab $(node -p 'require("@jupyterlab/application/package.json").version') assembled in $dir in $((SECONDS - start)) s"
