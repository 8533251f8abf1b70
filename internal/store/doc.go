// Package store reads and writes a repository's baseline where it lives:
// a file on disk (the command line, or the action without a token) or a
// file on a branch through the GitHub Contents API. Both offer one
// operation for the refresh, Update, which merges the new run into
// whatever is stored at that moment, so the command line and the action
// refresh a baseline the same way and two concurrent writers lose nothing.
package store
