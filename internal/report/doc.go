// Package report renders results and comparisons for people: the plain
// text tables of a run, benchstat-like comparison text, and the Markdown
// report for pull-request comments and job summaries. The report of a
// baseline update (the history's change points and creep) is
// internal/updatereport's, which builds on the Markdown pieces this
// package exports (EscapeCell, CellName, PlainText, Details, LineChart,
// ...).
package report
