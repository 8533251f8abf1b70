package sandbox

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix" // prctl(PR_SET_NO_NEW_PRIVS), which syscall lacks
)

// Exec becomes user uid (group gid, no supplementary groups) with
// no_new_privs set, then executes argv: it returns only on failure. It is
// what `wirebench sandbox` does, in a process of its own started by Wrap's
// command; Go switches the ids of every thread of the process.
func Exec(uid, gid int, argv []string) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: set no_new_privs: %w", err)
	}
	if err := syscall.Setgroups(nil); err != nil {
		return fmt.Errorf("sandbox: drop the supplementary groups: %w", err)
	}
	if err := syscall.Setgid(gid); err != nil {
		return fmt.Errorf("sandbox: become group %d: %w", gid, err)
	}
	if err := syscall.Setuid(uid); err != nil {
		return fmt.Errorf("sandbox: become user %d: %w", uid, err)
	}
	if os.Geteuid() != uid {
		return fmt.Errorf("sandbox: still user %d after becoming %d", os.Geteuid(), uid)
	}
	if err := syscall.Exec(argv[0], argv, os.Environ()); err != nil {
		return fmt.Errorf("sandbox: run %s: %w", argv[0], err)
	}
	return nil
}
