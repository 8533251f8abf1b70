//go:build !unix

package sandbox

import "io/fs"

// sandboxMay reports whether the others' permission bits of fi hold want:
// without Unix ownership, the sandbox's user is one of the others (and a
// Sandbox is never active here anyway).
func sandboxMay(fi fs.FileInfo, want fs.FileMode) bool { return fi.Mode().Perm()&want == want }
