// Package remote runs a gotensor kernel on another machine (a cluster's
// compute node, a container) and connects Jupyter's client to it. It knows
// nothing of schedulers: package remote/slurm starts the node side through
// Slurm, and a Kubernetes or Enterprise Gateway launcher implements the
// same Starter.
//
// The two halves speak through the node process's standard input and
// output:
//
//   - Launch runs where Jupyter runs, in place of the kernel. It listens on
//     the five ports of Jupyter's connection file, has a Starter start
//     `gotensor kernel --remote` elsewhere, writes a Handshake (the signing
//     key, where to bind) on that process's stdin, reads a Ready line (the
//     node's address and ports) from its stdout, and forwards every TCP
//     connection of the client to the node. Messages are signed end to end
//     with the connection file's key; the launcher only moves bytes.
//   - Accept runs on the node: it reads the Handshake, picks the address
//     that routes back to the launcher and five free ports, prints Ready,
//     and returns the connection to serve with package kernel. Node.Watch
//     ends the kernel when the launcher is gone (its stdin closes, or its
//     keepalives stop), and Node.Release then gives the machine back.
//
// The launcher side:
//
//	err := remote.Launch(ctx, remote.Config{Conn: conn, Starter: s, Node: s.Node(), Log: log})
//
// The node side:
//
//	node, err := remote.Accept(os.Stdin, os.Stdout)
//	restart, err := kernel.Run(node.Watch(ctx), kernel.Config{Conn: node.Conn, ...})
//
// Security: Accept refuses a handshake without a key, so no kernel listens
// on a routable address unless every message it accepts must be signed;
// the key travels only on the node process's stdin (never on a command
// line, in the environment or in a file); the sockets bind one address,
// the one that routes to the launcher, not all of the node's.
package remote
