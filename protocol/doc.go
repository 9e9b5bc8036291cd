// Package protocol implements the Jupyter messaging protocol's wire format,
// version 5.3: connection files, message headers, HMAC signing and the
// multipart framing that carries a message over ZeroMQ.
//
// It is pure: it opens no socket and runs no code. The kernel package reads
// a connection file with ReadConnectionFile, builds a Signer from its key,
// turns received frames into a Message with Decode, and turns replies back
// into frames with Message.Encode; a Session stamps the headers:
//
//	info, err := protocol.ReadConnectionFile(path)
//	signer, err := info.Signer()
//	session := protocol.NewSession("kernel")
//	req, err := protocol.Decode(frames, signer)
//	reply, err := session.NewMessage("kernel_info_reply", req, content)
//	frames, err = reply.Encode(signer)
//
// See https://jupyter-client.readthedocs.io/en/stable/messaging.html.
package protocol
