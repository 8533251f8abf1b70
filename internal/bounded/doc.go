// Package bounded reads input wirebench does not control — an event
// payload, downloaded shard artifacts, a benchmark file from a pull
// request — with a bound on its size, so that a huge or endless file is a
// clear error instead of the job running out of memory.
package bounded
