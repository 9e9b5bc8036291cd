#!/usr/bin/env bash
# mnist.sh is the main job: on a fresh Debian 12 machine it installs what is
# missing and trains on MNIST in a notebook, headless, the way a person would
# in JupyterLab.
#
# It runs scripts/install.sh (scripts/setup.sh: Debian's Jupyter, OpenBLAS,
# the Go toolchain and modules; then it builds bin/gotensor and installs the
# "Go (gotensor)" kernelspec for this user), fetches MNIST
# (bin/gotensor data mnist), executes notebooks/mnist.ipynb through the
# installed kernel with Debian's `jupyter nbconvert --execute` into
# out/mnist.ipynb, exports that to out/mnist.html, and prints the test
# accuracies the notebook reached.
#
# It exits non-zero when a step fails, a cell fails, or the accuracies miss
# their targets (MLP 97.5%, CNN 98.5%).
#
# Environment: GOTENSOR_KERNEL_NAME names the kernelspec (default gotensor);
# GOTENSOR_DATA is where data sets live (default ~/.cache/gotensor).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

kernel="${GOTENSOR_KERNEL_NAME:-gotensor}"
mlp_target=97.5
cnn_target=98.5
out=out

say() { printf 'mnist: %s\n' "$*" >&2; }

# Jupyter's Python tools warn about the debugger on every start; the
# warning is noise here.
export PYDEVD_DISABLE_FILE_VALIDATION=1

say "setting up, building bin/gotensor and installing the kernelspec ${kernel}"
scripts/install.sh --user --name "$kernel"

say "fetching MNIST (nothing to do when it is already there)"
bin/gotensor data mnist

mkdir -p "$out"
say "executing notebooks/mnist.ipynb on the ${kernel} kernel (a minute or two on a CPU)"
start=$SECONDS
status=0
/usr/bin/jupyter nbconvert --execute --to notebook \
	--ExecutePreprocessor.kernel_name="$kernel" \
	--ExecutePreprocessor.timeout=1200 \
	--output-dir "$out" --output mnist.ipynb \
	notebooks/mnist.ipynb || status=$?
took=$((SECONDS - start))
if ((status != 0)); then
	say "executing the notebook failed (status ${status}): a cell raised an error; see the output above"
	exit 1
fi
/usr/bin/jupyter nbconvert --to html --output-dir "$out" --output mnist.html "$out/mnist.ipynb"

# Read the summary lines the last cell prints, check every cell ran
# cleanly and compare the accuracies with their targets.
/usr/bin/python3 - "$out/mnist.ipynb" "$mlp_target" "$cnn_target" "$took" <<'EOF'
import json
import re
import sys

path, mlp_target, cnn_target, took = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
with open(path) as f:
    nb = json.load(f)


def text(t):
    return "".join(t) if isinstance(t, list) else t


failed = []
lines = []
for cell in nb["cells"]:
    for o in cell.get("outputs", []):
        if o["output_type"] == "error":
            failed.append(f"{o['ename']}: {o['evalue']}")
        elif o["output_type"] == "stream":
            lines += text(o["text"]).splitlines()

found = {}
for line in lines:
    m = re.match(r"(MLP|CNN|Reloaded CNN) test accuracy: ([0-9.]+)%", line)
    if m:
        found[m.group(1)] = (float(m.group(2)), line)

print()
print(f"executed notebook: {path}")
print(f"as HTML:           {path[:-len('.ipynb')]}.html")
print(f"notebook time:     {took} s")
ok = not failed
for e in failed:
    print(f"cell error: {e}")
for name, target in (("MLP", mlp_target), ("CNN", cnn_target)):
    if name not in found:
        print(f"{name}: no accuracy in the notebook's output")
        ok = False
        continue
    acc, line = found[name]
    verdict = "ok" if acc >= target else f"BELOW the target of {target}%"
    print(f"{line}  [{verdict}]")
    ok = ok and acc >= target
if "Reloaded CNN" in found:
    acc, line = found["Reloaded CNN"]
    same = "CNN" in found and acc == found["CNN"][0]
    print(f"{line}  [{'ok' if same else 'DIFFERS from the trained CNN'}]")
    ok = ok and same
else:
    print("Reloaded CNN: no accuracy in the notebook's output")
    ok = False
sys.exit(0 if ok else 1)
EOF

echo
echo "To open it: bin/gotensor lab (JupyterLab on 127.0.0.1 serving this folder), then open notebooks/mnist.ipynb with the kernel \"Go (gotensor)\". The executed copy, with its outputs, is ${out}/mnist.ipynb."
