#!/usr/bin/python3
"""kernel_bench: gotensor's kernel against ipykernel, side by side.

For each kernel it measures

  start-up    from launching the process until its first kernel_info_reply
              (median over --starts fresh processes), and
  round trip  of an execute_request for "1+1" until both its execute_reply
              and its "idle" status have arrived (median over --runs
              requests, after --warmup requests),

and prints both and their ratio (gotensor / ipykernel: below 1 is faster).

The client is a bare pyzmq one that signs its own messages: jupyter_client
adds about a millisecond a request, which would hide the kernels.

    /usr/bin/python3 bench/kernel_bench.py --gotensor bin/gotensor

With --slurm it also measures "Go (gotensor) on Slurm" (`gotensor slurm`,
the kernel on a node srun allocates, its channels forwarded by the
launcher) in a third column; run it where Slurm answers, e.g. in the
throw-away cluster of tests/slurmcluster.py:

    python3 tests/slurmcluster.py -- /usr/bin/python3 bench/kernel_bench.py --slurm
"""

import argparse
import hashlib
import hmac
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

import zmq

DELIM = b"<IDS|MSG>"
CHANNELS = ("shell", "iopub", "stdin", "control", "hb")


def free_ports(n):
    """n distinct free TCP ports on 127.0.0.1."""
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


class Kernel:
    """One kernel process and a lean client for it."""

    def __init__(self, name, argv, ctx, workdir, log):
        self.name = name
        self.ctx = ctx
        self.key = uuid.uuid4().hex.encode()
        self.session = uuid.uuid4().hex
        ports = dict(zip(CHANNELS, free_ports(len(CHANNELS))))
        self.info = {
            "transport": "tcp",
            "ip": "127.0.0.1",
            "signature_scheme": "hmac-sha256",
            "key": self.key.decode(),
            "kernel_name": name,
            **{f"{ch}_port": p for ch, p in ports.items()},
        }
        self.conn_file = os.path.join(workdir, f"kernel-{name}-{uuid.uuid4().hex[:8]}.json")
        with open(self.conn_file, "w") as f:
            json.dump(self.info, f)
        self.argv = [a.replace("{connection_file}", self.conn_file) for a in argv]
        self.log = log
        self.proc = None

    def endpoint(self, channel):
        return f"tcp://127.0.0.1:{self.info[channel + '_port']}"

    def socket(self, kind, channel):
        s = self.ctx.socket(kind)
        s.linger = 0
        # Retry the connection every millisecond, not every 100 ms, so the
        # start-up time is not rounded up to libzmq's reconnect interval.
        s.setsockopt(zmq.RECONNECT_IVL, 1)
        s.connect(self.endpoint(channel))
        return s

    def msg(self, msg_type, content):
        header = {
            "msg_id": uuid.uuid4().hex,
            "session": self.session,
            "username": "bench",
            "date": time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime()),
            "msg_type": msg_type,
            "version": "5.3",
        }
        parts = [json.dumps(p).encode() for p in (header, {}, {}, content)]
        sig = hmac.new(self.key, b"".join(parts), hashlib.sha256).hexdigest().encode()
        return header["msg_id"], [DELIM, sig, *parts]

    def start(self):
        """Launches the kernel and returns seconds until its first
        kernel_info_reply."""
        self.shell = self.socket(zmq.DEALER, "shell")
        self.control = self.socket(zmq.DEALER, "control")
        self.iopub = self.socket(zmq.SUB, "iopub")
        self.iopub.setsockopt(zmq.SUBSCRIBE, b"")
        msg_id, frames = self.msg("kernel_info_request", {})
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        self.shell.send_multipart(frames)
        while True:
            if not self.shell.poll(60_000):
                raise RuntimeError(f"{self.name}: no kernel_info_reply within 60 s (is it installed? see --verbose)")
            if self.parent_id(self.shell.recv_multipart()) == msg_id:
                return time.perf_counter() - t0

    @staticmethod
    def parse(frames):
        i = frames.index(DELIM)
        return json.loads(frames[i + 2]), json.loads(frames[i + 3]), frames[i + 5]

    def parent_id(self, frames):
        return self.parse(frames)[1].get("msg_id")

    def execute(self, code):
        """Sends one execute_request; returns the round-trip seconds until
        both its execute_reply and its idle status arrived."""
        content = {
            "code": code,
            "silent": False,
            "store_history": True,
            "user_expressions": {},
            "allow_stdin": False,
            "stop_on_error": True,
        }
        msg_id, frames = self.msg("execute_request", content)
        poller = zmq.Poller()
        poller.register(self.shell, zmq.POLLIN)
        poller.register(self.iopub, zmq.POLLIN)
        replied = idle = False
        t0 = time.perf_counter()
        self.shell.send_multipart(frames)
        while not (replied and idle):
            ready = dict(poller.poll(30_000))
            if not ready:
                raise RuntimeError(f"{self.name}: no answer to execute_request within 30 s")
            if self.shell in ready:
                header, parent, content = self.parse(self.shell.recv_multipart())
                if parent.get("msg_id") == msg_id and header["msg_type"] == "execute_reply":
                    status = json.loads(content)["status"]
                    if status != "ok":
                        raise RuntimeError(f"{self.name}: execute_request failed: {content[:200]!r}")
                    replied = True
            if self.iopub in ready:
                header, parent, content = self.parse(self.iopub.recv_multipart())
                if (
                    parent.get("msg_id") == msg_id
                    and header["msg_type"] == "status"
                    and json.loads(content)["execution_state"] == "idle"
                ):
                    idle = True
        return time.perf_counter() - t0

    def stop(self):
        if self.proc is None:
            return
        _, frames = self.msg("shutdown_request", {"restart": False})
        try:
            self.control.send_multipart(frames, flags=zmq.NOBLOCK)
            self.proc.wait(timeout=5)
        except (zmq.ZMQError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        for s in (self.shell, self.control, self.iopub):
            s.close()
        self.proc = None
        os.unlink(self.conn_file)


def measure(name, argv, args, ctx, workdir, log):
    """Returns (median start-up s, median round trip s, all round trips)."""
    starts, trips = [], []
    for i in range(args.starts):
        k = Kernel(name, argv, ctx, workdir, log)
        try:
            starts.append(k.start())
            if i == 0:
                for _ in range(args.warmup):
                    k.execute("1+1")
                trips = [k.execute("1+1") for _ in range(args.runs)]
        finally:
            k.stop()
    return statistics.median(starts), statistics.median(trips), trips


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gotensor", default="bin/gotensor", help="the gotensor binary (default bin/gotensor)")
    ap.add_argument("--python", default="/usr/bin/python3", help="the Python that runs ipykernel")
    ap.add_argument("--runs", type=int, default=200, help="timed execute requests (default 200)")
    ap.add_argument("--warmup", type=int, default=20, help="untimed execute requests first (default 20)")
    ap.add_argument("--starts", type=int, default=5, help="kernel launches for start-up (default 5)")
    ap.add_argument("--slurm", action="store_true", help="also measure `gotensor slurm` (needs a Slurm cluster)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--verbose", action="store_true", help="show the kernels' logs")
    args = ap.parse_args()

    gotensor = os.path.abspath(args.gotensor)
    if not os.access(gotensor, os.X_OK):
        sys.exit(f"kernel_bench: {gotensor} is not an executable; build it: make build")
    kernels = [
        ("gotensor", [gotensor, "kernel", "-f", "{connection_file}"]),
        ("ipykernel", [args.python, "-m", "ipykernel_launcher", "-f", "{connection_file}"]),
    ]
    if args.slurm:
        kernels.append(("on slurm", [gotensor, "slurm", "-f", "{connection_file}"]))
    ctx = zmq.Context()
    results = {}
    log = None if args.verbose else subprocess.DEVNULL
    with tempfile.TemporaryDirectory(prefix="kernel-bench-") as workdir:
        for name, argv in kernels:
            start, trip, trips = measure(name, argv, args, ctx, workdir, log)
            results[name] = {
                "startup_ms": start * 1e3,
                "roundtrip_ms": trip * 1e3,
                "roundtrip_p90_ms": statistics.quantiles(trips, n=10)[-1] * 1e3,
            }
    ctx.term()

    g, p = results["gotensor"], results["ipykernel"]
    ratios = {k: g[k] / p[k] for k in g}
    if args.json:
        print(json.dumps({"kernels": results, "ratios": ratios, "runs": args.runs, "starts": args.starts}, indent=1))
        return
    print(f"kernel_bench: {platform.node()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"start-up: median of {args.starts} launches; round trip: median (p90) of {args.runs} execute_request \"1+1\"\n")
    slurm = results.get("on slurm")
    print(f"{'':24}{'gotensor':>12}{'ipykernel':>12}{'ratio':>9}" + (f"{'on slurm':>12}" if slurm else ""))
    rows = [
        ("start-up (ms)", "startup_ms"),
        ("round trip (ms)", "roundtrip_ms"),
        ("round trip p90 (ms)", "roundtrip_p90_ms"),
    ]
    for label, key in rows:
        print(f"{label:24}{g[key]:12.2f}{p[key]:12.2f}{ratios[key]:9.3f}" + (f"{slurm[key]:12.2f}" if slurm else ""))
    print("\nratio = gotensor / ipykernel (goal: below 0.2)")


if __name__ == "__main__":
    main()
