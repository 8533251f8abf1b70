//go:build slow

package wire

// encodeRounds is 30% more than without the tag: Encode is 30% slower.
const encodeRounds = 13
