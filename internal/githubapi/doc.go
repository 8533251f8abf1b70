// Package githubapi is wirebench's GitHub REST client: the sticky pull
// request comment and the baseline file stored through the Contents API.
//
// It is built on github.com/google/go-github and adds what a CI tool needs
// on top: retries with backoff for 5xx, network errors and rate limits that
// never duplicate a comment or re-send a lost body (see retryTransport); a
// total time bound per call (Options.MaxElapsed), so a stuck API or a
// one-hour Retry-After fails the job with a clear message instead of hanging
// it; optimistic-concurrency file updates that never overwrite blindly; and
// errors that say what went wrong and how to fix it, never containing the
// token.
package githubapi
