// Package slurm starts a gotensor kernel on a node that Slurm allocates:
// the Slurm half of `gotensor slurm`, the launcher a "Go (gotensor) on
// Slurm" kernelspec runs. Package remote does the rest (the handshake,
// forwarding the five channels, the lifeline).
//
// One srun both asks for the allocation (with the kernelspec's partition,
// GPUs, time limit and other options) and runs `gotensor kernel --remote`
// in it, so the allocation lives exactly as long as that srun:
//
//	o := slurm.Options{Partition: "gpu", GPUs: "1", Time: "8:00:00"}
//	s := slurm.NewStarter(o, log, os.Stderr)
//	err := remote.Launch(ctx, remote.Config{Conn: conn, Starter: s, Node: o.Node(), Log: log})
//
// srun runs in its own process group, so the SIGKILL that Jupyter sends
// the launcher's group does not reach it; it gets SIGTERM when the launcher
// dies (and then ends the job), and the launcher runs scancel whenever it
// ends. The job id and the queue wait come from srun's messages and go to
// the launcher's log. Interrupts are `scancel --signal=INT`. A refused
// allocation is explained: no such partition (with the partitions there
// are), no GPUs, Slurm's controller down, no gotensor binary on the node.
package slurm
