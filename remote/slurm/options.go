package slurm

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gotensor/gotensor/remote"
)

// DefaultLifeline is how long the kernel on the node waits without a word
// from its launcher before it stops and cancels its job. The launcher
// writes four times as often; only a launcher that is gone (and whose srun
// was killed with it) falls silent that long.
const DefaultLifeline = 2 * time.Minute

// Options are what a kernel asks Slurm for and how the node runs it: the
// flags of `gotensor slurm` and of `gotensor install --slurm`, which
// writes them into kernel.json. Empty fields leave srun's defaults (and the
// cluster's) alone.
type Options struct {
	Partition  string // --partition: where the job runs
	GPUs       string // --gpus: a count or TYPE:COUNT ("1", "a100:2")
	CPUs       int    // --cpus-per-task
	Mem        string // --mem: memory per node ("16G")
	Time       string // --time: the job's time limit ("8:00:00")
	Account    string // --account
	QOS        string // --qos
	Constraint string // --constraint: node features
	// SrunArgs are more srun options, one argument each
	// ("--reservation=r", "--exclusive"), after the ones above.
	SrunArgs []string
	// Binary is the path of gotensor on the nodes. Empty means the
	// launcher's own path: right when the nodes share the filesystem it is
	// on (a shared home or /opt).
	Binary string
	// NodeCUDA chooses the build the node runs: "auto" (the default: the
	// CUDA build beside Binary, gotensor-cuda, where the node has a GPU),
	// "on" or "off".
	NodeCUDA string
	// Bind is the address the kernel binds on the node. Empty means the
	// node's address on the route to the launcher's host.
	Bind string
	// Lifeline: see DefaultLifeline, which 0 means; a negative value
	// means no timeout (the kernel still stops when srun closes its
	// stdin). The flag's 0 is that negative value.
	Lifeline time.Duration
}

// AddFlags defines o's flags on fs, with o's values as the defaults.
func (o *Options) AddFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.Partition, "partition", o.Partition, "Slurm `partition` to run the kernel in (srun --partition)")
	fs.StringVar(&o.GPUs, "gpus", o.GPUs, "GPUs for the kernel: a count or TYPE:COUNT (srun --gpus)")
	fs.IntVar(&o.CPUs, "cpus", o.CPUs, "CPUs for the kernel (srun --cpus-per-task)")
	fs.StringVar(&o.Mem, "mem", o.Mem, "memory for the kernel, e.g. 16G (srun --mem)")
	fs.StringVar(&o.Time, "time", o.Time, "the job's time limit, e.g. 8:00:00 (srun --time)")
	fs.StringVar(&o.Account, "account", o.Account, "Slurm `account` to charge (srun --account)")
	fs.StringVar(&o.QOS, "qos", o.QOS, "quality of service (srun --qos)")
	fs.StringVar(&o.Constraint, "constraint", o.Constraint, "node `features` required (srun --constraint)")
	fs.Var((*stringList)(&o.SrunArgs), "srun-arg", "one more srun `option`, e.g. --srun-arg=--reservation=r (repeat for more)")
	fs.StringVar(&o.Binary, "node-binary", o.Binary, "`path` of gotensor on the nodes (default: this binary's path, for nodes that share its filesystem)")
	if o.NodeCUDA == "" {
		o.NodeCUDA = "auto"
	}
	fs.StringVar(&o.NodeCUDA, "node-cuda", o.NodeCUDA, "which build the node runs: auto (gotensor-cuda beside the binary where the node has a GPU), on or off")
	fs.StringVar(&o.Bind, "bind", o.Bind, "`address` the kernel binds on the node (default: the node's address toward this machine)")
	fs.Var((*lifeline)(&o.Lifeline), "lifeline", "the kernel stops and cancels its job after this `duration` without a word from the launcher, 0 for never (default "+DefaultLifeline.String()+")")
}

// lifeline is the --lifeline flag: a duration whose 0 means none.
type lifeline time.Duration

func (l *lifeline) String() string {
	switch d := time.Duration(*l); {
	case d < 0:
		return "0s"
	case d == 0:
		return ""
	default:
		return d.String()
	}
}

func (l *lifeline) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if d < 0 {
		return fmt.Errorf("negative duration %v", d)
	}
	if d == 0 {
		d = -1
	}
	*l = lifeline(d)
	return nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, " ") }
func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// Args returns o as the flags of AddFlags (only those that differ from the
// defaults), for a kernelspec's argv.
func (o Options) Args() []string {
	var a []string
	add := func(name, v string) {
		if v != "" {
			a = append(a, "--"+name+"="+v)
		}
	}
	for _, opt := range o.allocation() {
		add(opt.flag, opt.value)
	}
	for _, s := range o.SrunArgs {
		add("srun-arg", s)
	}
	add("node-binary", o.Binary)
	if o.NodeCUDA != "" && o.NodeCUDA != "auto" {
		add("node-cuda", o.NodeCUDA)
	}
	add("bind", o.Bind)
	if o.Lifeline < 0 {
		add("lifeline", "0")
	} else if o.Lifeline != 0 && o.Lifeline != DefaultLifeline {
		add("lifeline", o.Lifeline.String())
	}
	return a
}

// Validate reports options that srun would misread or that make no sense.
func (o Options) Validate() error {
	switch o.NodeCUDA {
	case "", "auto", "on", "off":
	default:
		return fmt.Errorf("slurm: --node-cuda %q: want auto, on or off", o.NodeCUDA)
	}
	if o.CPUs < 0 {
		return fmt.Errorf("slurm: --cpus %d: want a positive count", o.CPUs)
	}
	for _, s := range o.SrunArgs {
		if !strings.HasPrefix(s, "-") {
			return fmt.Errorf("slurm: --srun-arg %q is not an srun option: write it with its dashes and value in one, e.g. --srun-arg=--reservation=r", s)
		}
	}
	return nil
}

// Node returns the node side's options for remote.Launch: bind on the
// route back to srun's host (which srun gives the job as
// $SLURM_LAUNCH_NODE_IPADDR), report the job and node, and cancel the job
// from the node if the launcher is lost.
func (o Options) Node() remote.NodeOptions {
	life := o.Lifeline
	switch {
	case life == 0:
		life = DefaultLifeline
	case life < 0:
		life = 0
	}
	return remote.NodeOptions{
		Bind:       o.Bind,
		Toward:     "$SLURM_LAUNCH_NODE_IPADDR",
		Report:     []string{"SLURM_JOB_ID", "SLURMD_NODENAME", "CUDA_VISIBLE_DEVICES"},
		Release:    []string{"scancel", "$SLURM_JOB_ID"},
		LifelineMS: life.Milliseconds(),
	}
}

// An allocationOption is one of Options' allocation fields: its flag in
// AddFlags, srun's option, and its value ("" when unset).
type allocationOption struct{ flag, srun, value string }

// allocation lists o's allocation fields in the order srun gets them.
func (o Options) allocation() []allocationOption {
	cpus := ""
	if o.CPUs > 0 {
		cpus = strconv.Itoa(o.CPUs)
	}
	return []allocationOption{
		{"partition", "partition", o.Partition},
		{"gpus", "gpus", o.GPUs},
		{"cpus", "cpus-per-task", cpus},
		{"mem", "mem", o.Mem},
		{"time", "time", o.Time},
		{"account", "account", o.Account},
		{"qos", "qos", o.QOS},
		{"constraint", "constraint", o.Constraint},
	}
}

// srunArgs returns srun's arguments: the allocation, then the node side.
func (o Options) srunArgs() []string {
	a := []string{"--verbose", "--job-name=gotensor-kernel", "--nodes=1", "--ntasks=1"}
	for _, opt := range o.allocation() {
		if opt.value != "" {
			a = append(a, "--"+opt.srun+"="+opt.value)
		}
	}
	a = append(a, o.SrunArgs...)
	cuda := o.NodeCUDA
	if cuda == "" {
		cuda = "auto"
	}
	return append(a, o.Binary, "kernel", "--remote", "--cuda="+cuda)
}
