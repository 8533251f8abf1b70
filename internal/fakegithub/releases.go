package fakegithub

import (
	"net/http"
	"slices"
	"strings"
)

// Documentation URLs GitHub puts in the error bodies of these endpoints.
const (
	docLatestRelease = "https://docs.github.com/rest/releases/releases#get-the-latest-release"
	docCompare       = "https://docs.github.com/rest/commits/commits#compare-two-commits"
)

// AddCommitLine sets the commits of owner/repo's default branch, oldest
// first (one line, no merges): what comparing two of them answers.
func (s *Server) AddCommitLine(owner, repo string, shas []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lines == nil {
		s.lines = map[string][]string{}
	}
	s.lines[owner+"/"+repo] = slices.Clone(shas)
}

// AddRelease publishes a release of owner/repo tagged tag at commit sha
// (one of its commit line); the last added is the latest.
func (s *Server) AddRelease(owner, repo, tag, sha string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.releases == nil {
		s.releases = map[string][][2]string{}
	}
	s.releases[owner+"/"+repo] = append(s.releases[owner+"/"+repo], [2]string{tag, sha})
}

// latestRelease serves GET /repos/{owner}/{repo}/releases/latest: the
// latest release's tag, 404 when the repository has none.
func (s *Server) latestRelease(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	rs := s.releases[r.PathValue("owner")+"/"+r.PathValue("repo")]
	s.mu.Unlock()
	if len(rs) == 0 {
		writeError(w, http.StatusNotFound, "Not Found", docLatestRelease, nil)
		return
	}
	last := rs[len(rs)-1]
	writeJSON(w, http.StatusOK, map[string]any{"id": len(rs), "tag_name": last[0], "target_commitish": last[1], "name": last[0], "draft": false, "prerelease": false})
}

// compare serves GET /repos/{owner}/{repo}/compare/{base}...{head} for
// commits of the commit line and release tags: status ahead (head after
// base), behind, or identical, with ahead_by and behind_by; 404 for a
// ref it does not know.
func (s *Server) compare(w http.ResponseWriter, r *http.Request) {
	owner, repo := r.PathValue("owner"), r.PathValue("repo")
	base, head, ok := strings.Cut(r.PathValue("basehead"), "...")
	s.mu.Lock()
	line := s.lines[owner+"/"+repo]
	resolve := func(ref string) int {
		for _, rel := range s.releases[owner+"/"+repo] {
			if rel[0] == ref {
				ref = rel[1]
			}
		}
		return slices.IndexFunc(line, func(sha string) bool { return len(ref) >= 7 && strings.HasPrefix(sha, ref) })
	}
	b, h := resolve(base), resolve(head)
	s.mu.Unlock()
	if !ok || b < 0 || h < 0 {
		writeError(w, http.StatusNotFound, "Not Found", docCompare, nil)
		return
	}
	status := "identical"
	switch {
	case h > b:
		status = "ahead"
	case h < b:
		status = "behind"
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": status, "ahead_by": max(h-b, 0), "behind_by": max(b-h, 0), "total_commits": max(h-b, 0)})
}
