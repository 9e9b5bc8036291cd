"""The kernel on a Slurm cluster's node, through jupyter_client.

A real one-node cluster (tests/slurmcluster.py: Debian's munged, slurmctld
and slurmd, the node in a network namespace of its own when this machine
allows it) comes up for this module and goes down after it. The tests
install the "Go (gotensor) on Slurm" kernelspec with `gotensor install
--slurm` and check what a notebook user relies on: cells run on the node
and keep their state, interrupts (message and SIGINT) reach the cell there,
restart and shutdown release the allocation, a job that Slurm ends is a
dead kernel, a dead launcher leaves no job behind, the queue wait is in the
launcher's log with the job id, and a kernel that cannot start says why.

The binary is $GOTENSOR_BIN, else bin/gotensor (scripts/test.sh builds it).
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import warnings

import pytest
from jupyter_client.connect import write_connection_file
from jupyter_client.manager import KernelManager

from conftest import execute, get_reply, iopub_for, missing, of_type, stream_text, wait_for_output
from slurmcluster import Cluster, Unavailable, free_port

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOTENSOR = os.path.abspath(os.environ.get("GOTENSOR_BIN") or os.path.join(REPO, "bin", "gotensor"))
SPEC = "gotensor-slurm-test"
LIFELINE_SPEC = "gotensor-slurm-lifeline-test"
START = 60  # seconds for a kernel to start: srun, the node, the handshake


def result_text(msgs):
    return "".join(m["content"]["data"]["text/plain"] for m in of_type(msgs, "execute_result"))


def until(pred, timeout, what):
    """Polls pred until it returns a true value, which it returns; fails
    after timeout seconds (a hang guard, not a speed check)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = pred()
        if got:
            return got
        time.sleep(0.1)
    pytest.fail(f"{what} within {timeout}s")


@pytest.fixture(scope="module")
def cluster():
    if not os.access(GOTENSOR, os.X_OK):
        missing(f"no gotensor binary at {GOTENSOR}: go build -o bin/gotensor ./cmd/gotensor", module_level=True)
    c = Cluster()
    try:
        c.check()
    except Unavailable as e:
        missing(str(e), module_level=True)
    c.start()
    # Said plainly in the test's output (pytest -s, or the warnings summary).
    print(f"\nslurm cluster: {c.note}", file=sys.stderr)
    if not c.isolated:
        warnings.warn(f"slurm cluster: {c.note}")
    saved = {k: os.environ.get(k) for k in ("SLURM_CONF", "JUPYTER_DATA_DIR")}
    data = tempfile.mkdtemp(prefix="gotensor-slurm-jupyter-")
    # Jupyter's server (here jupyter_client) and the launchers it starts
    # find the cluster through $SLURM_CONF, as on a real login node they
    # find /etc/slurm/slurm.conf.
    os.environ["SLURM_CONF"] = c.conf
    os.environ["JUPYTER_DATA_DIR"] = data
    try:
        yield c
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        c.stop()
        subprocess.run(["rm", "-rf", data])


@pytest.fixture(scope="module")
def specs(cluster):
    """Installs the Slurm kernelspecs the tests use, as a user would."""
    out = {}
    for name, extra in ((SPEC, []), (LIFELINE_SPEC, ["--lifeline=2s"])):
        r = subprocess.run([GOTENSOR, "install", "--slurm", "--name", name, "--partition=debug", "--time=10:00", *extra],
                           capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, r.stderr
        out[name] = os.path.join(os.environ["JUPYTER_DATA_DIR"], "kernels", name)
    return out


class Kernel:
    """A kernel started from a Slurm kernelspec, with the launcher's log
    (its stderr) in a file."""

    def __init__(self, name=SPEC, wait=True):
        self.log_file = tempfile.NamedTemporaryFile("w+", prefix="gotensor-slurm-launcher-", suffix=".log", delete=False)
        self.km = KernelManager(kernel_name=name)
        self.km.start_kernel(stderr=self.log_file)
        self.kc = self.km.client()
        self.kc.start_channels()
        if wait:
            self.ready()

    def ready(self):
        try:
            self.kc.wait_for_ready(timeout=START)
        except RuntimeError as e:
            raise AssertionError(f"{e}; the launcher's log:\n{self.log()}") from None

    def log(self):
        with open(self.log_file.name, errors="replace") as f:
            return f.read()

    @property
    def pid(self):
        return self.km.provisioner.process.pid

    def job(self):
        """The job id the kernel reports from the node."""
        reply, msgs = execute(self.kc, 'import "os"\nfmt.Print(os.Getenv("SLURM_JOB_ID"))')
        assert reply["content"]["status"] == "ok", reply
        return stream_text(msgs)

    def close(self):
        self.kc.stop_channels()
        if self.km.has_kernel:
            self.km.shutdown_kernel(now=True)
        self.km.cleanup_resources()
        os.unlink(self.log_file.name)


@pytest.fixture
def kernel(specs):
    k = Kernel()
    yield k
    k.close()


def test_install_writes_a_second_kernelspec(specs):
    with open(os.path.join(specs[SPEC], "kernel.json")) as f:
        spec = json.load(f)
    assert spec["display_name"] == "Go (gotensor) on Slurm"
    assert spec["argv"][:2] == [GOTENSOR, "slurm"]
    assert spec["argv"][-2:] == ["-f", "{connection_file}"]
    assert "--partition=debug" in spec["argv"] and "--time=10:00" in spec["argv"]
    assert spec["interrupt_mode"] == "message"
    for logo in ("logo-32x32.png", "logo-64x64.png"):
        assert os.path.exists(os.path.join(specs[SPEC], logo))


def test_cells_run_on_the_node_and_keep_state(cluster, kernel):
    reply, _ = execute(kernel.kc, "x := 41")
    assert reply["content"]["status"] == "ok"
    reply, msgs = execute(kernel.kc, "x + 1")
    assert result_text(msgs) == "42"

    # On the node Slurm chose, in the job squeue shows.
    job = kernel.job()
    assert cluster.jobs() == [job]
    reply, msgs = execute(kernel.kc, 'fmt.Print(os.Getenv("SLURMD_NODENAME"))')
    assert stream_text(msgs) == "node1"
    if cluster.isolated:
        # Another address: the node's namespace, not Jupyter's machine.
        reply, msgs = execute(kernel.kc, 'import "net"\naddrs, _ := net.InterfaceAddrs()\nfmt.Print(addrs)')
        assert cluster.node_addr + "/24" in stream_text(msgs)
        assert f"addr={cluster.node_addr}" in kernel.log()
    assert f"job={job}" in kernel.log()
    # The heartbeat crosses too.
    until(kernel.kc.hb_channel.is_beating, 10, "no heartbeat")

    kernel.km.shutdown_kernel(now=False)
    assert not kernel.km.is_alive()
    assert cluster.wait_no_jobs(20), f"job {job} still in squeue after shutdown: {cluster.jobs()}"


def loop_and_interrupt(kernel, interrupt):
    """Runs an endless loop on the node, interrupts it, and checks that the
    session's state survived."""
    execute(kernel.kc, 'import "time"\ncount := 0')
    msg_id = kernel.kc.execute('for {\n\tif count == 0 {\n\t\tfmt.Println("running")\n\t}\n\tcount++\n\ttime.Sleep(time.Millisecond)\n}')
    wait_for_output(kernel.kc, msg_id, "running")
    time.sleep(1)
    interrupt()
    reply = get_reply(kernel.kc.shell_channel, msg_id, timeout=20)
    assert reply["content"]["status"] == "error"
    assert "nterrupt" in reply["content"]["ename"] + reply["content"]["evalue"], reply["content"]
    assert len(of_type(iopub_for(kernel.kc, msg_id), "error")) == 1
    reply, msgs = execute(kernel.kc, "fmt.Print(count > 100)")
    assert stream_text(msgs) == "true"


def test_interrupt_by_message(kernel):
    # The kernelspec's interrupt_mode is "message": interrupt_request on the
    # control channel, forwarded to the node.
    loop_and_interrupt(kernel, kernel.km.interrupt_kernel)


def test_interrupt_by_signal(kernel):
    # Jupyter's signal mode: SIGINT to the launcher's process group; the
    # launcher passes it to the kernel with scancel --signal=INT.
    loop_and_interrupt(kernel, lambda: kernel.km.signal_kernel(signal.SIGINT))
    assert "interrupt passed to the kernel" in kernel.log()


def test_restart_releases_the_job_and_starts_a_new_one(cluster, kernel):
    execute(kernel.kc, "y := 7")
    first = kernel.job()
    kernel.km.restart_kernel(now=False)
    kernel.ready()
    second = kernel.job()
    assert second != first
    assert cluster.jobs() == [second], f"the first job {first} is still in squeue: {cluster.jobs()}"
    reply, _ = execute(kernel.kc, "fmt.Println(y)")
    assert reply["content"]["status"] == "error"  # a new session


def test_job_ended_by_slurm_is_a_dead_kernel(cluster, kernel):
    job = kernel.job()
    r = cluster.run("scancel", job)
    assert r.returncode == 0, r.stderr
    until(lambda: not kernel.km.is_alive(), 30, "the launcher still runs after scancel")
    log = kernel.log()
    assert f"Slurm ended job {job}" in log and "CANCELLED" in log, log
    until(lambda: not kernel.kc.hb_channel.is_beating(), 30, "the heartbeat still beats")
    assert cluster.wait_no_jobs(20)


def test_killed_launcher_leaves_no_job(cluster, kernel):
    job = kernel.job()
    # What Jupyter does when a kernel does not stop in time: SIGKILL to the
    # launcher's process group (srun has a group of its own).
    os.killpg(os.getpgid(kernel.pid), signal.SIGKILL)
    assert cluster.wait_no_jobs(30), f"job {job} still in squeue after the launcher was killed"


def test_node_cancels_its_job_when_launcher_and_srun_are_gone(cluster, specs):
    k = Kernel(LIFELINE_SPEC)
    try:
        job = k.job()
        srun = [int(p) for p in subprocess.run(["pgrep", "-P", str(k.pid), "-x", "srun"], capture_output=True, text=True).stdout.split()]
        assert len(srun) == 1, "the launcher has no srun child"
        # Freeze the launcher so that it cannot clean up, kill its srun,
        # then the launcher: only the node's lifeline is left to cancel.
        os.kill(k.pid, signal.SIGSTOP)
        os.kill(srun[0], signal.SIGKILL)
        os.kill(k.pid, signal.SIGKILL)
        assert cluster.jobs() == [job]
        assert cluster.wait_no_jobs(40), f"job {job} still in squeue: the node did not cancel it"
        assert cluster.job_state(job) in ("CANCELLED", None)
    finally:
        k.close()


def test_queue_wait_is_logged_with_the_job_id(cluster, specs):
    r = cluster.run("sbatch", "--parsable", "--output=/dev/null", f"--cpus-per-task={cluster.cpus}", "--wrap=sleep 300")
    assert r.returncode == 0, r.stderr
    blocker = r.stdout.strip()
    until(lambda: cluster.job_state(blocker) == "RUNNING", 30, "the job that fills the node did not run")
    k = Kernel(wait=False)
    try:
        until(lambda: "queued, waiting for resources" in k.log(), 30, "no queue message in the launcher's log")
        line = next(l for l in k.log().splitlines() if "queued, waiting for resources" in l)
        job = line.split("job=")[1].split()[0]
        assert job != blocker and cluster.job_state(job) == "PENDING"
        cluster.run("scancel", blocker)
        k.ready()
        assert k.job() == job
        assert f'msg="slurm: the job has its resources" launcher=slurm pid={k.pid} job={job}' in k.log()
    finally:
        k.close()
    assert cluster.wait_no_jobs(20)


def launch_directly(cluster, *flags, env=None, key="a-secret"):
    """Runs `gotensor slurm` on a fresh connection file, as Jupyter would;
    returns its exit status and log."""
    with tempfile.TemporaryDirectory() as d:
        fname, _ = write_connection_file(os.path.join(d, "kernel.json"), key=key.encode())
        r = subprocess.run([GOTENSOR, "slurm", "-f", fname, *flags], env=env or cluster.env(),
                           capture_output=True, text=True, timeout=60)
    return r.returncode, r.stderr


def test_no_such_partition_says_which_exist(cluster, specs):
    code, log = launch_directly(cluster, "--partition=nosuch")
    assert code == 1
    assert 'Slurm has no partition "nosuch"' in log and "debug*" in log, log


def test_no_gpus_says_so(cluster, specs):
    code, log = launch_directly(cluster, "--gpus=1")
    assert code == 1
    assert "no node here can give the kernel --gpus=1" in log, log


def test_missing_binary_on_the_node_says_where_to_put_it(cluster, specs):
    code, log = launch_directly(cluster, "--node-binary=/nonexistent/gotensor")
    assert code == 1
    assert "cannot run /nonexistent/gotensor" in log and "--node-binary" in log, log
    assert cluster.wait_no_jobs(20)


def test_slurm_down_says_so(cluster, specs, tmp_path):
    # A slurm.conf whose controller port has no controller behind it.
    port = free_port()
    conf = tmp_path / "slurm.conf"
    with open(cluster.conf) as f:
        lines = [f"SlurmctldPort={port}" if l.startswith("SlurmctldPort=") else l for l in f.read().splitlines()]
    conf.write_text("\n".join(lines) + "\n")
    env = cluster.env()
    env["SLURM_CONF"] = str(conf)
    code, log = launch_directly(cluster, env=env)
    assert code == 1
    assert "Slurm's controller does not answer" in log, log


def test_no_key_no_listener(cluster, specs):
    code, log = launch_directly(cluster, key="")
    assert code == 1
    assert "no key" in log, log
    assert cluster.jobs() == []
