"""A throw-away Slurm cluster for the tests, from Debian 12's packages
(munge, slurmctld, slurmd, slurm-client, which scripts/setup.sh installs):
munged, the controller and one compute node, "node1", with their
configuration, state, sockets and logs in a temporary directory, on ports
picked free. Nothing of the machine's own Slurm or munge set-up is used or
touched.

The compute node runs in a network namespace of its own, joined to this
machine by a veth pair (10.213.X.1 here, 10.213.X.2 on the node), so that
the kernel Slurm starts there is on another address than Jupyter and the
launcher, as on a real cluster. Where namespaces cannot be made, the node
shares this machine's network (127.0.0.1) and `note` says so plainly.

It needs root (slurmd runs jobs as their users, and namespaces need it).

As a program it brings the cluster up, runs a command with $SLURM_CONF
pointing at it, takes the cluster down and exits with the command's status:

    python3 tests/slurmcluster.py -- srun hostname
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

DAEMONS = {
    "munged": "/usr/sbin/munged",
    "slurmctld": "/usr/sbin/slurmctld",
    "slurmd": "/usr/sbin/slurmd",
}
TOOLS = ["srun", "sbatch", "squeue", "scancel", "sinfo", "scontrol"]


class Unavailable(Exception):
    """This machine cannot run the cluster: the message says what is missing."""


def free_port(host="127.0.0.1"):
    """A TCP port free on host now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _wait(pred, timeout, what, step=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = pred()
        if got:
            return got
        time.sleep(step)
    raise TimeoutError(f"{what} within {timeout}s")


class Cluster:
    """One controller and one compute node. start() brings them up (in a few
    seconds), stop() takes everything down: jobs, daemons, the namespace,
    the directory. Use it as a context manager."""

    def __init__(self, cpus=2, isolate=True):
        self.cpus = cpus
        self.isolate = isolate
        self.dir = None
        self.procs = {}
        self.netns = None
        self.veth = None
        self.host_addr = self.node_addr = "127.0.0.1"
        self.isolated = False
        self.note = ""
        self.conf = None

    # -- set-up --------------------------------------------------------

    def check(self):
        """Raises Unavailable when this machine lacks what the cluster needs."""
        if os.geteuid() != 0:
            raise Unavailable("the Slurm tests need root (slurmd and network namespaces); run them as root")
        missing = [p for p in DAEMONS.values() if not os.access(p, os.X_OK)]
        missing += [t for t in TOOLS if shutil.which(t) is None]
        if missing:
            raise Unavailable(f"Slurm is not installed ({', '.join(missing)} missing): scripts/setup.sh installs munge, slurmctld, slurmd and slurm-client")

    def start(self):
        self.check()
        self.dir = tempfile.mkdtemp(prefix="gotensor-slurm-")
        os.chmod(self.dir, 0o755)  # munge wants its socket's directories reachable
        try:
            self._network()
            self._munge()
            self._config()
            env = self.env()
            self.procs["slurmctld"] = self._spawn("slurmctld", [DAEMONS["slurmctld"], "-D", "-f", self.conf], env)
            slurmd = [DAEMONS["slurmd"], "-D", "-N", "node1", "-f", self.conf]
            if self.isolated:
                # nsenter changes only the network: slurmd still sees the
                # cgroup mounts (ip netns exec would remount /sys).
                slurmd = ["nsenter", f"--net=/run/netns/{self.netns}", *slurmd]
            self.procs["slurmd"] = self._spawn("slurmd", slurmd, env)
            _wait(lambda: self._node_state() == "idle", 60, "node1 did not come up idle")
        except BaseException:
            logs = self.logs()
            self.stop()
            raise RuntimeError(f"the Slurm test cluster did not start; its logs:\n{logs}") from None
        return self

    def _network(self):
        if not self.isolate:
            self.note = "the compute node shares this machine's network (asked so): 'remote' is 127.0.0.1"
            return
        if shutil.which("ip") is None or shutil.which("nsenter") is None:
            self.note = "no `ip` or `nsenter` here: the compute node shares this machine's network (127.0.0.1), so 'remote' is not another address"
            return
        pid = os.getpid()
        used = subprocess.run(["ip", "-o", "-4", "addr", "show"], capture_output=True, text=True).stdout
        subnet = next((f"10.213.{x}" for x in [(pid + i) % 250 + 1 for i in range(250)] if f" 10.213.{x}." not in used), None)
        name, host_if, node_if = f"gtslurm{pid}", f"gts{pid}h", f"gts{pid}n"
        steps = [
            ["ip", "netns", "add", name],
            ["ip", "link", "add", host_if, "type", "veth", "peer", "name", node_if],
            ["ip", "link", "set", node_if, "netns", name],
            ["ip", "addr", "add", f"{subnet}.1/24", "dev", host_if],
            ["ip", "link", "set", host_if, "up"],
            ["ip", "netns", "exec", name, "ip", "addr", "add", f"{subnet}.2/24", "dev", node_if],
            ["ip", "netns", "exec", name, "ip", "link", "set", node_if, "up"],
            ["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"],
        ]
        for i, cmd in enumerate(steps):
            r = subprocess.run(cmd, capture_output=True, text=True)
            if i == 0 and r.returncode == 0:
                self.netns = name
            if i == 1 and r.returncode == 0:
                self.veth = host_if
            if r.returncode != 0:
                self._drop_network()
                self.note = (f"this machine does not allow network namespaces ({' '.join(cmd)}: {r.stderr.strip()}): "
                             "the compute node shares this machine's network (127.0.0.1), so 'remote' is not another address")
                return
        self.isolated = True
        self.host_addr, self.node_addr = f"{subnet}.1", f"{subnet}.2"
        self.note = f"the compute node is in network namespace {name} at {self.node_addr}; Jupyter and the launcher are at {self.host_addr}"

    def _munge(self):
        d = os.path.join(self.dir, "munge")
        os.mkdir(d, 0o700)
        key = os.path.join(d, "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        os.chmod(d, 0o755)
        self.munge_socket = os.path.join(d, "munge.socket")
        self.procs["munged"] = self._spawn("munged", [
            DAEMONS["munged"], "--foreground", "--force",
            f"--socket={self.munge_socket}", f"--key-file={key}",
            f"--pid-file={d}/munged.pid", f"--seed-file={d}/munged.seed",
            f"--log-file={self.dir}/munged.log",
        ], os.environ.copy())
        _wait(lambda: os.path.exists(self.munge_socket), 20, "munged made no socket")

    def _config(self):
        d = self.dir
        for sub in ("state", "spool"):
            os.mkdir(os.path.join(d, sub))
        host = socket.gethostname().split(".")[0]
        lines = [
            "ClusterName=gotensortest",
            f"SlurmctldHost={host}({self.host_addr})",
            f"SlurmctldPort={free_port()}",
            f"SlurmdPort={free_port()}",
            "SlurmUser=root",
            "SlurmdUser=root",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            f"AuthInfo=socket={self.munge_socket}",
            f"StateSaveLocation={d}/state",
            f"SlurmdSpoolDir={d}/spool",
            f"SlurmctldPidFile={d}/slurmctld.pid",
            f"SlurmdPidFile={d}/slurmd.pid",
            f"SlurmctldLogFile={d}/slurmctld.log",
            f"SlurmdLogFile={d}/slurmd.log",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none",
            "MpiDefault=none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU",
            "SlurmdParameters=config_overrides",
            "ReturnToService=2",
            "KillWait=3",
            "MessageTimeout=5",
            "MailProg=/bin/true",
            f"NodeName=node1 NodeAddr={self.node_addr} CPUs={self.cpus} State=UNKNOWN",
            "PartitionName=debug Nodes=node1 Default=YES MaxTime=INFINITE State=UP",
        ]
        self.conf = os.path.join(d, "slurm.conf")
        with open(self.conf, "w") as f:
            f.write("\n".join(lines) + "\n")

    def _spawn(self, name, argv, env):
        out = open(os.path.join(self.dir, f"{name}.out"), "wb")
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)

    # -- use -----------------------------------------------------------

    def env(self, base=None):
        """The environment for Slurm's commands and for Jupyter: $SLURM_CONF
        names this cluster."""
        env = dict(os.environ if base is None else base)
        env["SLURM_CONF"] = self.conf
        return env

    def run(self, *args, timeout=30, check=False):
        """Runs a Slurm command on this cluster; returns CompletedProcess."""
        return subprocess.run(list(args), env=self.env(), capture_output=True, text=True, timeout=timeout, check=check)

    def jobs(self):
        """The ids of the jobs in the queue (pending, running, completing)."""
        r = self.run("squeue", "--noheader", "--format=%i %T")
        if r.returncode != 0:
            raise RuntimeError(f"squeue failed: {r.stderr}")
        return [line.split()[0] for line in r.stdout.splitlines() if line.strip()]

    def job_state(self, job):
        r = self.run("scontrol", "--oneliner", "show", "job", str(job))
        for f in r.stdout.split():
            if f.startswith("JobState="):
                return f.split("=", 1)[1]
        return None

    def wait_no_jobs(self, timeout=20):
        """Waits until the queue is empty and returns True, or returns False."""
        try:
            _wait(lambda: not self.jobs(), timeout, "jobs left", step=0.2)
            return True
        except TimeoutError:
            return False

    def _node_state(self):
        r = self.run("sinfo", "--noheader", "--nodes=node1", "--format=%T")
        return r.stdout.strip()

    def logs(self, tail=40):
        """The last lines of each daemon's log, for a failure's message."""
        out = []
        if self.dir:
            for name in ("munged.out", "munged.log", "slurmctld.out", "slurmctld.log", "slurmd.out", "slurmd.log"):
                p = os.path.join(self.dir, name)
                if os.path.exists(p):
                    with open(p, errors="replace") as f:
                        lines = f.read().splitlines()[-tail:]
                    out.append(f"--- {name}\n" + "\n".join(lines))
        return "\n".join(out)

    # -- tear-down -----------------------------------------------------

    def stop(self):
        """Cancels every job, stops the daemons, kills what is left of the
        jobs, and removes the namespace and the directory. Bounded: about
        half a minute at worst."""
        if self.conf and self.procs.get("slurmctld") and self.procs["slurmctld"].poll() is None:
            try:
                ids = self.jobs()
                if ids:
                    self.run("scancel", *ids, timeout=10)
                    self.wait_no_jobs(15)
            except Exception:
                pass
        for name in ("slurmd", "slurmctld", "munged"):
            p = self.procs.pop(name, None)
            if p is None:
                continue
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(5)
        self._kill_leftovers()
        self._drop_network()
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def _kill_leftovers(self):
        """Kills the processes the jobs left (slurmstepd, kernels): those in
        the namespace, and any whose environment names this cluster."""
        pids = set()
        if self.netns:
            r = subprocess.run(["ip", "netns", "pids", self.netns], capture_output=True, text=True)
            pids.update(int(p) for p in r.stdout.split() if p.isdigit())
        if self.conf:
            want = f"SLURM_CONF={self.conf}".encode()
            for entry in os.listdir("/proc"):
                if not entry.isdigit() or int(entry) == os.getpid():
                    continue
                try:
                    with open(f"/proc/{entry}/environ", "rb") as f:
                        if want in f.read().split(b"\0"):
                            pids.add(int(entry))
                except OSError:
                    pass
        # Never this process, nor the ones that started it (a test runner
        # that set SLURM_CONF itself).
        spare = {os.getpid()}
        p = os.getppid()
        while p > 1 and p not in spare:
            spare.add(p)
            try:
                with open(f"/proc/{p}/stat") as f:
                    p = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                break
        for pid in pids - spare:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def _drop_network(self):
        if self.veth:
            subprocess.run(["ip", "link", "del", self.veth], capture_output=True)
            self.veth = None
        if self.netns:
            subprocess.run(["ip", "netns", "del", self.netns], capture_output=True)
            self.netns = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def main(argv):
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = argv[argv.index("--") + 1:]
    cluster = Cluster()

    def stop_on(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop_on)
    try:
        try:
            cluster.start()
        except Unavailable as e:
            print(f"slurmcluster: {e}", file=sys.stderr)
            return 3
        print(f"slurmcluster: up ({cluster.note}); SLURM_CONF={cluster.conf}", file=sys.stderr)
        env = cluster.env()
        env["GOTENSOR_SLURM_NODE_ADDR"] = cluster.node_addr
        return subprocess.run(cmd, env=env).returncode
    except KeyboardInterrupt:
        return 130
    finally:
        cluster.stop()
        print("slurmcluster: down", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
