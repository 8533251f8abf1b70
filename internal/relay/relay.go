// Package relay is the report a pull request's run hands to the trusted
// workflow that comments on it: the two halves of a check of a pull
// request from a fork, whose own run gets a read-only token.
//
// The pull_request run writes File (Write) into its results, the
// workflow uploads it as an artifact, and a workflow_run workflow of the
// base repository downloads it and posts the sticky comment (wirebench's
// mode comment). Everything in the file was written where the fork's code
// ran, so Read treats every byte as hostile: a bounded regular file, one
// JSON document of this format and version, its comparison read back
// from the numbers (report.ReadJSON) rather than from Markdown, so that
// the comment is rendered, escaped, by the trusted side. Check then ties
// it to the run GitHub says completed and the pull request GitHub says
// has that head, refusing any mismatch.
package relay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/wirebench/wirebench/internal/bounded"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
)

// File is the relay's file name in the results directory.
const File = "relay.json"

// Format and Version identify the file.
const (
	Format  = "wirebench.relay"
	Version = 1
)

// MaxBytes bounds the file Read accepts: a run of thousands of
// benchmarks fits many times over.
const MaxBytes = 8 << 20

// MaxBroken bounds the error text of a run that could not measure.
const MaxBroken = 16 << 10

// PullRequest is the pull request a run says it measured.
type PullRequest struct {
	Number   int    `json:"number"`
	HeadSHA  string `json:"head_sha"`
	HeadRepo string `json:"head_repo"`
}

// Broken is what a run that compared nothing could not measure, and why.
type Broken struct {
	What  string `json:"what"`
	Error string `json:"error"`
}

// envelope is the file.
type envelope struct {
	Format      string          `json:"format"`
	Version     int             `json:"version"`
	PullRequest PullRequest     `json:"pull_request"`
	Suite       string          `json:"suite"`
	Title       string          `json:"title"`
	Comparison  json.RawMessage `json:"comparison,omitempty"`
	Broken      *Broken         `json:"broken,omitempty"`
}

// Relay is a relay file read and checked for form: what the run says it
// measured and found. Nothing in it is to be trusted beyond that.
type Relay struct {
	PullRequest PullRequest
	// Suite names the suite whose sticky comment this is; Title the
	// report's title.
	Suite, Title string
	// Result is the comparison, FailOn the condition the run applied;
	// nil when the run could not measure (Broken).
	Result *compare.Result
	FailOn compare.FailOn
	Broken *Broken
}

// Write writes the relay of a pull request's run into dir: the
// comparison as its JSON report wrote it (comparison), or what could not
// be measured (broken).
func Write(dir string, pr PullRequest, suite, title string, comparison []byte, broken *Broken) error {
	data, err := json.MarshalIndent(envelope{Format: Format, Version: Version, PullRequest: pr, Suite: suite, Title: title,
		Comparison: comparison, Broken: broken}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the relay: %w", err)
	}
	return results.WriteFileAtomic(filepath.Join(dir, File), append(data, '\n'))
}

// Read reads and checks the relay file in dir. Its errors name what is
// wrong with the file; none says more of its content than a bounded,
// quoted excerpt.
func Read(dir string) (*Relay, error) {
	path := filepath.Join(dir, File)
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("no %s in %s: download the pull request run's artifact there (actions/download-artifact with its run-id)", File, dir)
	case err != nil:
		return nil, fmt.Errorf("relay %s: %w", path, err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("relay %s is not a regular file (%s): refused", path, fi.Mode().Type())
	case fi.Size() > MaxBytes:
		return nil, fmt.Errorf("relay %s has %d bytes, more than the %d a run writes: refused", path, fi.Size(), MaxBytes)
	}
	// Bounded again as read: the file may grow after Lstat.
	data, err := bounded.ReadFile(path, MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("relay %s: %w: refused", path, err)
	}
	r, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("relay %s: %w", path, err)
	}
	return r, nil
}

// Patterns of the envelope's fields.
var (
	shaPattern  = regexp.MustCompile(`^[0-9a-f]{40}$`)
	repoPattern = regexp.MustCompile(`^[A-Za-z0-9-]{1,39}/[A-Za-z0-9._-]{1,100}$`)
)

// parse checks data's form.
func parse(data []byte) (*Relay, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var e envelope
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("not a relay file: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not a relay file: data after its end")
	}
	pr := e.PullRequest
	switch {
	case e.Format != Format || e.Version != Version:
		return nil, fmt.Errorf("format %q version %d: want %q version %d (written by another wirebench?)", excerpt(e.Format), e.Version, Format, Version)
	case pr.Number <= 0:
		return nil, fmt.Errorf("pull request number %d: want a positive number", pr.Number)
	case !shaPattern.MatchString(pr.HeadSHA):
		return nil, fmt.Errorf("head SHA %q: want 40 lowercase hex digits", excerpt(pr.HeadSHA))
	case !repoPattern.MatchString(pr.HeadRepo):
		return nil, fmt.Errorf("head repository %q: want owner/name", excerpt(pr.HeadRepo))
	case !validSuite(e.Suite):
		return nil, fmt.Errorf("suite %q: want at most 200 printable characters, without \"--\", \"<\" or \">\"", excerpt(e.Suite))
	case len(e.Title) > 200 || strings.ContainsAny(e.Title, "\r\n"):
		return nil, fmt.Errorf("title %q: want one line of at most 200 bytes", excerpt(e.Title))
	case (e.Comparison == nil) == (e.Broken == nil):
		return nil, errors.New("want either a comparison or what could not be measured (broken), not both or neither")
	}
	r := &Relay{PullRequest: pr, Suite: e.Suite, Title: e.Title}
	if b := e.Broken; b != nil {
		if b.What == "" || len(b.What) > 200 || len(b.Error) > MaxBroken {
			return nil, fmt.Errorf("broken: want what (at most 200 bytes) and an error of at most %d bytes", MaxBroken)
		}
		r.Broken = b
		return r, nil
	}
	res, failOn, err := report.ReadJSON(e.Comparison)
	if err != nil {
		return nil, fmt.Errorf("comparison: %w", err)
	}
	r.Result, r.FailOn = res, failOn
	return r, nil
}

// validSuite reports whether s can stand in the sticky comment's marker,
// an HTML comment: printable, and nothing that could end it.
func validSuite(s string) bool {
	if s == "" || len(s) > 200 || strings.Contains(s, "--") || strings.ContainsAny(s, "<>") {
		return false
	}
	for _, c := range s {
		if c < ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// excerpt is at most 60 bytes of s, for an error message.
func excerpt(s string) string {
	if len(s) <= 60 {
		return s
	}
	return s[:60] + "…"
}
