#!/usr/bin/env bash
# test-lab.sh runs the JupyterLab browser tests (tests/lab/lab.test.mjs)
# with Node's test runner: they start bin/gotensor lab and drive the
# JupyterLab it serves in Debian's headless Chromium through puppeteer-core.
# It assembles the front end first (lab/assemble.sh, cached) and installs
# puppeteer-core from tests/lab/package-lock.json (cached the same way; no
# browser is downloaded). Screenshots go to tests/artifacts/lab/. Without
# arguments it then runs tests/lab/slurm.lab.mjs, the Slurm kernelspec in
# JupyterLab, inside a throw-away Slurm cluster (tests/slurmcluster.py).
#
# It needs bin/gotensor (go build -o bin/gotensor ./cmd/gotensor) and the
# packages scripts/setup.sh installs. It skips, saying so, only when the npm
# registry cannot be reached and nothing is cached (and fails then too under
# GOTENSOR_REQUIRE_TOOLS=1, as test.sh sets it); any other failure fails.
# Its arguments go to node --test (--test-name-pattern=REGEX runs some).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf 'test-lab: %s\n' "$*" >&2; }
skip() {
	if [[ "${GOTENSOR_REQUIRE_TOOLS:-0}" == 1 ]]; then
		say "FAILED (GOTENSOR_REQUIRE_TOOLS=1 allows no skip): the JupyterLab browser tests: $*"
		exit 1
	fi
	say "SKIPPED: the JupyterLab browser tests: $*"
	exit 0
}

if [[ ! -x bin/gotensor ]]; then
	say "bin/gotensor is missing: go build -o bin/gotensor ./cmd/gotensor"
	exit 1
fi

start=$SECONDS
status=0
lab/assemble.sh || status=$?
if ((status == 3)); then
	skip "the npm registry cannot be reached and no JupyterLab front end is cached"
elif ((status != 0)); then
	exit "$status"
fi
say "front end ready in $((SECONDS - start)) s"

# puppeteer-core, from the lock; .gotensor-lock records the lock installed.
lock="$(sha256sum tests/lab/package-lock.json | cut -d' ' -f1)"
if [[ "$(cat tests/lab/node_modules/.gotensor-lock 2>/dev/null)" != "$lock" ]]; then
	log="$(mktemp)"
	trap 'rm -f "$log"' EXIT
	if ! (cd tests/lab && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --ignore-scripts --prefer-offline) >"$log" 2>&1; then
		cat "$log" >&2
		if grep -qE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network' "$log"; then
			skip "the npm registry cannot be reached and puppeteer-core is not installed in tests/lab/node_modules"
		fi
		say "npm ci in tests/lab failed (output above)"
		exit 1
	fi
	echo "$lock" >tests/lab/node_modules/.gotensor-lock
fi

export GOTENSOR_LAB_ARTIFACTS="${GOTENSOR_LAB_ARTIFACTS:-$PWD/tests/artifacts/lab}"
export GOTENSOR_LAB_LOG="$GOTENSOR_LAB_ARTIFACTS/server.log"
mkdir -p "$GOTENSOR_LAB_ARTIFACTS"
status=0
node --test --test-reporter=spec "$@" tests/lab/ || status=$?
# "Go (gotensor) on Slurm" in the same front end, on a throw-away one-node
# Slurm cluster (tests/slurmcluster.py, about 30 s; it needs root and
# Debian's Slurm, which setup.sh installs, and exits 3 without them).
if (($# == 0)); then
	slurm=0
	/usr/bin/python3 tests/slurmcluster.py -- node --test --test-reporter=spec tests/lab/slurm.lab.mjs || slurm=$?
	if ((slurm == 3)) && [[ "${GOTENSOR_REQUIRE_TOOLS:-0}" != 1 ]]; then
		say "SKIPPED: the Slurm kernelspec in JupyterLab (no Slurm test cluster here, see above)"
	elif ((slurm != 0)); then
		status=1
	fi
fi
say "screenshots and the server's log are in $GOTENSOR_LAB_ARTIFACTS"
exit "$status"
