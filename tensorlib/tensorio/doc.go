// Package tensorio reads and writes tensors in the file formats other
// tools use: NumPy's .npy (one tensor, np.save and np.load) and Hugging
// Face's safetensors (named tensors with string metadata, the format
// nn.Save and nn.Load use, which PyTorch reads).
//
//	err := tensorio.SaveNPY("x.npy", x)       // np.load("x.npy")
//	y, err := tensorio.LoadNPY("y.npy")       // written by np.save
//	ts, meta, err := tensorio.LoadSafetensors("model.safetensors")
//
// Tensors on another device are copied to the host for writing; loaded
// tensors are on the CPU. Errors start with "tensorio: ", name the file
// and say what is wrong with it.
package tensorio
