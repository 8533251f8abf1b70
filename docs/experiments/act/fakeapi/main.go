// Command fakeapi serves internal/fakegithub on an address for a runner
// that is not wirebench's own (docs/experiments/act.sh): one write token,
// and one read-only token as a fork's pull request run gets. It runs
// until killed; on SIGTERM it writes every request and every comment of
// the repository as JSON to the file -dump names.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/wirebench/wirebench/internal/fakegithub"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	write := flag.String("token", "", "the write token (the base repository's GITHUB_TOKEN)")
	fork := flag.String("fork-token", "", "the read-only token (a fork's pull request run's)")
	repo := flag.String("repo", "octo-org/codecs", "owner/name of the repository")
	dump := flag.String("dump", "", "file the requests and comments are written to on SIGTERM")
	pr := flag.String("pr", "", "a pull request of the repository, NUMBER:HEADREPO:HEADREF:HEADSHA (HEADREPO owner/name)")
	flag.Parse()
	s, err := fakegithub.NewOn(*addr)
	if err != nil {
		log.Fatal(err)
	}
	if *write != "" {
		s.AddToken(*write, fakegithub.ActionsBot)
	}
	if *fork != "" {
		s.AddToken(*fork, fakegithub.Identity{Login: "github-actions[bot]", Type: "Bot", ReadOnly: true})
	}
	if *pr != "" {
		var p fakegithub.PullRequest
		parts := strings.SplitN(*pr, ":", 4)
		if len(parts) != 4 {
			log.Fatalf("-pr %q: want NUMBER:HEADREPO:HEADREF:HEADSHA", *pr)
		}
		n, err := strconv.Atoi(parts[0])
		if err != nil {
			log.Fatalf("-pr %q: %v", *pr, err)
		}
		p.Number, p.HeadRepo, p.HeadRef, p.HeadSHA, p.Author = n, parts[1], parts[2], parts[3], strings.SplitN(parts[1], "/", 2)[0]
		owner, name, _ := strings.Cut(*repo, "/")
		s.AddPullRequest(owner, name, p)
	}
	fmt.Println(s.URL)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
	<-stop
	if *dump != "" {
		owner, name := *repo, ""
		for i := range owner {
			if owner[i] == '/' {
				owner, name = owner[:i], owner[i+1:]
				break
			}
		}
		comments := map[int][]fakegithub.Comment{}
		for n := 1; n <= 100; n++ {
			if cs := s.Comments(owner, name, n); len(cs) > 0 {
				comments[n] = cs
			}
		}
		data, _ := json.MarshalIndent(map[string]any{"requests": s.Requests(), "comments": comments}, "", "  ")
		if err := os.WriteFile(*dump, data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	s.Close()
}
