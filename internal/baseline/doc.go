// Package baseline stores the reference a repository's runs are compared
// with: the full results of the reference run plus a bounded history of
// per-run summaries, for trends and for judging between-run variance.
//
// A baseline file is versioned JSON. Reading never guesses: an unknown
// format, a newer version, a truncated file or a file for another suite is
// an error that names the file and the fix.
package baseline
