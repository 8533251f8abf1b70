//go:build !slow

package wire

const encodeRounds = 10
