// Package plain needs no cgo, though it imports net, whose resolver uses
// cgo where cgo is on: wirebench builds it without.
package plain

import "net"

// Parse parses an IP address.
func Parse(s string) net.IP { return net.ParseIP(s) }
