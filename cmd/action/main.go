// Command action is the entrypoint of wirebench's action image (the
// Dockerfile builds it as /wirebench): run with no arguments, as the
// runner runs a Docker action, it is the action, reading its inputs from
// INPUT_* variables (action.yml). It serves every command of the
// wirebench tool too, which the image needs: its own binary is the
// embedded suite's worker and the sandbox's first step.
package main

import "github.com/wirebench/wirebench/internal/cli"

func main() { cli.Main(cli.Action) }
