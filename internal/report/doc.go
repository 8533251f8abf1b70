// Package report renders results and comparisons for people: the plain
// text tables of a run, benchstat-like comparison text, and the Markdown
// report for pull-request comments and job summaries.
package report
