#!/usr/bin/env bash
# check-layers.sh checks that the imports between gotensor's packages point
# one way, down the layers of the README's "Layout" section: for every
# package it asks `go list -deps` for everything the package is built from
# (directly or not) and fails when one of those is not in the layers the
# package may use. Tests are left out: a test may reach further (the tensor
# tests run on the emulated CUDA device).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PATH:/usr/local/go/bin"
module=github.com/gotensor/gotensor

# may PREFIX: the module's packages that the packages under PREFIX may be
# built from (besides their own sub-packages), as path prefixes. The most
# specific prefix of a package applies.
declare -A may=(
	[autograd]="internal/goroutine"
	[tensorlib/backend]="internal/goroutine"
	[tensorlib/internal/access]="internal/goroutine tensorlib/backend"
	[tensorlib/internal/parallel]="internal/goroutine tensorlib/backend"
	[tensorlib/internal/blas]="internal/goroutine tensorlib/backend tensorlib/internal/parallel"
	[tensorlib/cpu]="internal/goroutine tensorlib/backend tensorlib/internal"
	[tensorlib/tensor]="internal/goroutine internal/textform autograd tensorlib/backend tensorlib/internal tensorlib/cpu"
	[tensorlib/tensorio]="internal/goroutine internal/textform autograd tensorlib/backend tensorlib/cpu tensorlib/internal tensorlib/tensor"
	[tensorlib/nn]="internal/goroutine internal/textform autograd tensorlib/backend tensorlib/cpu tensorlib/internal tensorlib/tensor tensorlib/tensorio"
	[tensorlib/optim]="internal/goroutine internal/textform autograd tensorlib/backend tensorlib/cpu tensorlib/internal tensorlib/tensor"
	[tensorlib/data]="internal/goroutine internal/textform autograd tensorlib/backend tensorlib/cpu tensorlib/internal tensorlib/tensor"
	[kernels]=""
	[cuda]="internal/goroutine internal/textform autograd tensorlib/backend tensorlib/cpu tensorlib/internal/access tensorlib/internal/parallel tensorlib/internal/blas tensorlib/tensor kernels"
	[display]="internal/goroutine internal/textform autograd tensorlib/backend tensorlib/cpu tensorlib/internal tensorlib/tensor"
	[widgets]="internal/goroutine internal/textform autograd tensorlib/backend tensorlib/cpu tensorlib/internal tensorlib/tensor display"
	[protocol]=""
	[kernel]="protocol"
	[remote]="protocol"
	[install]=""
	[internal/testenv]=""
	[internal/goroutine]=""
	[internal/textform]=""
	[lab]=""
	[interp]="internal/goroutine internal/textform autograd tensorlib kernels cuda display widgets kernel protocol"
	[nbrun]="internal/goroutine internal/textform autograd tensorlib kernels cuda display widgets interp kernel protocol"
	[cmd]="internal/goroutine internal/textform autograd tensorlib kernels cuda display widgets interp protocol kernel remote install nbrun lab"
	[bench]="internal/goroutine internal/textform autograd tensorlib kernels cuda display widgets interp kernel protocol"
)

# rule prints the most specific prefix of may that covers package $1.
rule() {
	local p="$1" best=""
	for k in "${!may[@]}"; do
		if [[ "$p" == "$k" || "$p" == "$k/"* ]] && ((${#k} > ${#best})); then
			best="$k"
		fi
	done
	echo "$best"
}

bad=0
while read -r pkg deps; do
	p="${pkg#"$module"/}"
	r="$(rule "$p")"
	if [[ -z "$r" ]]; then
		echo "check-layers: $p has no layer: add it to the table in scripts/check-layers.sh and the README's Layout"
		bad=1
		continue
	fi
	for d in $deps; do
		[[ "$d" == "$module/"* ]] || continue
		d="${d#"$module"/}"
		[[ "$d" == "$p" || "$d" == "$r" || "$d" == "$r/"* ]] && continue
		ok=0
		for a in ${may[$r]}; do
			if [[ "$d" == "$a" || "$d" == "$a/"* ]]; then
				ok=1
				break
			fi
		done
		if ((!ok)); then
			echo "check-layers: $p is built from $d, which its layer ($r) may not use"
			bad=1
		fi
	done
done < <(go list -f '{{.ImportPath}} {{join .Deps " "}}' ./...)
if ((bad)); then
	exit 1
fi
echo "check-layers: every package's imports point down its layers"
