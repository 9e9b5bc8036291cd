// Package install writes and removes gotensor's Jupyter kernelspec.
//
// A kernelspec is a directory named after the kernel (gotensor by default)
// inside a "kernels" folder that Jupyter searches. It holds kernel.json,
// which tells Jupyter how to start the kernel, and the logos a front end
// shows in its launcher. Install picks the folder the way
// `jupyter kernelspec install` does:
//
//	User:      $JUPYTER_DATA_DIR, else $XDG_DATA_HOME/jupyter, else ~/.local/share/jupyter
//	SysPrefix: the Python prefix of the jupyter on PATH (/usr on Debian), + /share/jupyter
//	Prefix:    a directory of your choice, + /share/jupyter
//
// and writes kernels/NAME below it:
//
//	dir, err := install.Install(install.Options{Location: install.User})
//
// Uninstall finds a kernelspec the way Jupyter does ($JUPYTER_PATH first,
// then the user, environment and system directories) and removes it.
package install
