// Package config defines every setting of wirebench once: its name (the
// flag and, for the action, the input), the commands that take it, its
// default and its help. A command parses its flags with Parse; under
// GitHub Actions, FromInputs sets every non-empty INPUT_NAME on the same
// flag -name, so an input and a flag cannot drift apart, and Validate then
// checks both the same way. Defaults that depend on how timings are
// compared (a stored baseline or the same-runner A/B mode) are resolved in
// one place, MeasureBudget and CompareOptions.
package config
