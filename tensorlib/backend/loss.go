package backend

// Loss computes the softmax cross-entropy of classification in one pass
// over the logits, forward and backward, where the composed form takes a
// dozen small ops.
type Loss interface {
	// CrossEntropy returns the mean over rows of logsumexp(row) -
	// row[label] of the logits under ll, [N, C], with the Int64 labels
	// under lbl, [N]: loss holds that one element, lse the rows'
	// logsumexp, [N], for CrossEntropyBackward. A label outside [0, C)
	// panics with a *tensor.IndexError.
	CrossEntropy(logits Storage, ll Layout, labels Storage, lbl Layout) (loss, lse Storage)
	// CrossEntropyBackward returns the gradient of the logits, [N, C],
	// for the gradient g (one element, under gl) of CrossEntropy's loss:
	// (softmax(row) - onehot(label)) * g / N.
	CrossEntropyBackward(g Storage, gl Layout, logits Storage, ll Layout, labels Storage, lbl Layout, lse Storage) Storage
}
