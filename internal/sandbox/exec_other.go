//go:build !linux

package sandbox

import "errors"

// Exec is Linux only: elsewhere a Sandbox is never active.
func Exec(uid, gid int, argv []string) error {
	return errors.New("sandbox: switching users is implemented on Linux only")
}
