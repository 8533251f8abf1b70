// Package updatereport renders the report of a baseline update: what a
// push to the default branch stored, the change points and the creep of
// the stored history, and its trend charts (the push's job summary), and
// the one-line forms of a change point and a creep for annotations and
// the terminal.
//
// It is the other report beside internal/report's comparison report (a
// pull request's check). The name says whose report it is, the update's:
// "history" would read as internal/history, which finds the change points
// and the creep this package only shows, and "update" alone as a verb.
// It builds on internal/report's Markdown pieces (escaping, names,
// values, collapsed blocks, Mermaid line charts); internal/report does
// not import it.
package updatereport
