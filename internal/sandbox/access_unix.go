//go:build unix

package sandbox

import (
	"io/fs"
	"syscall"
)

// sandboxMay reports whether the sandbox's user (UID, group GID and no
// other) has the permission bits want (0o4 read, 0o1 search or execute,
// 0o5 both) on the file fi, as the kernel decides from its mode: the
// owner's bits when UID owns it, the group's when GID does, the others'
// otherwise. Access control lists are not read: where one lets the user
// through and the mode does not, a copy is made that was not needed.
func sandboxMay(fi fs.FileInfo, want fs.FileMode) bool {
	perm := fi.Mode().Perm()
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		switch {
		case st.Uid == UID:
			return perm>>6&want == want
		case st.Gid == GID:
			return perm>>3&want == want
		}
	}
	return perm&want == want
}
