package report

// style is how a sentence shared by the Markdown and the text report
// shows what it quotes and marks. A sentence is written once and told the
// style: mdStyle for pull-request comments and job summaries, textStyle
// for the terminal and the log.
type style interface {
	// text is text from outside (a name, a reason, a version), which
	// Markdown must show inert.
	text(s string) string
	// name is a benchmark's name, short; in Markdown with its package.
	name(benchmark string) string
	// code is a command or a flag to type.
	code(s string) string
	// warning marks a paragraph that asks the reader to act.
	warning(s string) string
}

var (
	mdStyle   style = markdownStyle{}
	textStyle style = plainStyle{}
)

// markdownStyle is style for Markdown: text escaped, names as in a
// table's cell, code spans, warnings as a quote with a warning sign.
type markdownStyle struct{}

func (markdownStyle) text(s string) string         { return escapeInline(s) }
func (markdownStyle) name(benchmark string) string { return CellName(benchmark) }
func (markdownStyle) code(s string) string         { return code(s) }
func (markdownStyle) warning(s string) string      { return "> ⚠️ " + s }

// plainStyle is style for plain text: everything as it is, names short.
type plainStyle struct{}

func (plainStyle) text(s string) string         { return s }
func (plainStyle) name(benchmark string) string { return ShortName(benchmark) }
func (plainStyle) code(s string) string         { return s }
func (plainStyle) warning(s string) string      { return s }
