package fakegithub

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// PullRequest is a pull request held by the fake: what the pull request
// endpoints wirebench reads give of it.
type PullRequest struct {
	Number  int
	Author  string // login of its author
	Body    string
	Labels  []string
	BaseRef string // default DefaultBranch
	HeadSHA string
	// HeadRepo is the owner/name of the repository its head branch is
	// in (default: the base repository; another is a fork) and HeadRef
	// that branch (default feature-<number>).
	HeadRepo, HeadRef string
	// MergeCommitSHA, with Merged, is the commit its merge made.
	MergeCommitSHA string
	Merged         bool
	Commits        []PullCommit
}

// PullCommit is a commit of a pull request.
type PullCommit struct {
	SHA     string
	Message string
	Author  string // login; "" for a commit whose e-mail GitHub knows no account for
	Name    string // the author's name in the commit
}

// Documentation URLs GitHub puts in the error bodies of these endpoints.
const (
	docListPullCommits   = "https://docs.github.com/rest/pulls/pulls#list-commits-on-a-pull-request"
	docListCommitPulls   = "https://docs.github.com/rest/commits/commits#list-pull-requests-associated-with-a-commit"
	docListPulls         = "https://docs.github.com/rest/pulls/pulls#list-pull-requests"
	pullsForbiddenMsg    = "Resource not accessible by integration"
	maxPullCommitsListed = 250
)

// AddPullRequest holds pr in owner/repo (replacing one of its number).
func (s *Server) AddPullRequest(owner, repo string, pr PullRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if pr.BaseRef == "" {
		pr.BaseRef = DefaultBranch
	}
	key := owner + "/" + repo
	if s.pulls == nil {
		s.pulls = map[string]map[int]PullRequest{}
	}
	if s.pulls[key] == nil {
		s.pulls[key] = map[int]PullRequest{}
	}
	if pr.HeadRepo == "" {
		pr.HeadRepo = key
	}
	if pr.HeadRef == "" {
		pr.HeadRef = "feature-" + strconv.Itoa(pr.Number)
	}
	s.pulls[key][pr.Number] = pr
}

// listPulls serves GET /repos/{owner}/{repo}/pulls: the pull requests in
// the state asked for (open by default; closed, all), those of head
// "user:ref-name" only when head is given (a head without the user is
// ignored, as GitHub does), newest first, paginated.
func (s *Server) listPulls(w http.ResponseWriter, r *http.Request) {
	if !canReadPulls(w, r, docListPulls) {
		return
	}
	owner, repo, q := r.PathValue("owner"), r.PathValue("repo"), r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	if state != "open" && state != "closed" && state != "all" {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed", docListPulls,
			[]validationError{{Resource: "Issue", Field: "state", Code: "invalid"}})
		return
	}
	headUser, headRef, byHead := strings.Cut(q.Get("head"), ":")
	s.mu.Lock()
	var found []PullRequest
	for n := s.maxPull(owner, repo); n >= 1; n-- {
		pr, ok := s.pulls[owner+"/"+repo][n]
		switch {
		case !ok, state == "open" && pr.Merged, state == "closed" && !pr.Merged:
			continue
		case byHead && (pr.HeadRef != headRef || !strings.EqualFold(strings.SplitN(pr.HeadRepo, "/", 2)[0], headUser)):
			continue
		}
		found = append(found, pr)
	}
	s.mu.Unlock()
	s.writePulls(w, r, owner, repo, found)
}

// writePulls answers with the page of found asked for, as GitHub's
// list endpoints give pull requests.
func (s *Server) writePulls(w http.ResponseWriter, r *http.Request, owner, repo string, found []PullRequest) {
	lo, hi := s.paginate(w, r, len(found))
	out := []any{}
	for _, pr := range found[lo:hi] {
		out = append(out, s.pullJSON(owner, repo, pr))
	}
	writeJSON(w, http.StatusOK, out)
}

// canReadPulls answers 403 as GitHub does for a token without
// pull-requests (or contents) read access.
func canReadPulls(w http.ResponseWriter, r *http.Request, docURL string) bool {
	if identity(r).NoPullRequests {
		writeError(w, http.StatusForbidden, pullsForbiddenMsg, docURL, nil)
		return false
	}
	return true
}

// listPullCommits serves GET /repos/{owner}/{repo}/pulls/{number}/commits:
// the commits oldest first, paginated like GitHub (per_page 30 by default,
// at most 100, at most 250 commits in all); 404 for a pull request the
// repository does not have.
func (s *Server) listPullCommits(w http.ResponseWriter, r *http.Request) {
	if !canReadPulls(w, r, docListPullCommits) {
		return
	}
	number, err := strconv.Atoi(r.PathValue("number"))
	s.mu.Lock()
	pr, ok := s.pulls[r.PathValue("owner")+"/"+r.PathValue("repo")][number]
	s.mu.Unlock()
	if err != nil || !ok {
		writeError(w, http.StatusNotFound, "Not Found", docListPullCommits, nil)
		return
	}
	commits := pr.Commits[:min(len(pr.Commits), maxPullCommitsListed)]
	lo, hi := s.paginate(w, r, len(commits))
	out := []any{}
	for _, c := range commits[lo:hi] {
		out = append(out, s.commitJSON(r.PathValue("owner"), r.PathValue("repo"), c))
	}
	writeJSON(w, http.StatusOK, out)
}

// listCommitPulls serves GET /repos/{owner}/{repo}/commits/{sha}/pulls:
// the pull requests merged by the commit (their merge commit) or
// containing it, as GitHub's "pull request simple" objects; [] for a
// commit no pull request has. A sha that is not 7 to 40 hex digits is 422
// as on GitHub.
func (s *Server) listCommitPulls(w http.ResponseWriter, r *http.Request) {
	if !canReadPulls(w, r, docListCommitPulls) {
		return
	}
	owner, repo, sha := r.PathValue("owner"), r.PathValue("repo"), r.PathValue("sha")
	if !isHexSHA(sha) {
		writeError(w, http.StatusUnprocessableEntity, "No commit found for SHA: "+sha, docListCommitPulls, nil)
		return
	}
	s.mu.Lock()
	var found []PullRequest
	for n := 1; n <= s.maxPull(owner, repo); n++ {
		pr, ok := s.pulls[owner+"/"+repo][n]
		if ok && pr.contains(sha) {
			found = append(found, pr)
		}
	}
	s.mu.Unlock()
	s.writePulls(w, r, owner, repo, found)
}

func (pr PullRequest) contains(sha string) bool {
	if pr.Merged && strings.HasPrefix(pr.MergeCommitSHA, sha) || strings.HasPrefix(pr.HeadSHA, sha) {
		return true
	}
	for _, c := range pr.Commits {
		if strings.HasPrefix(c.SHA, sha) {
			return true
		}
	}
	return false
}

// maxPull is the largest pull request number of owner/repo. s.mu is held.
func (s *Server) maxPull(owner, repo string) int {
	n := 0
	for k := range s.pulls[owner+"/"+repo] {
		n = max(n, k)
	}
	return n
}

func isHexSHA(s string) bool {
	if len(s) < 7 || len(s) > 40 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// loginJSON is the user object of login, or null for none: a commit
// whose e-mail GitHub knows no account for has "author": null.
func (s *Server) loginJSON(login string) any {
	if login == "" {
		return nil
	}
	typ := "User"
	if strings.HasSuffix(login, "[bot]") {
		typ = "Bot"
	}
	return s.userJSON(Identity{Login: login, Type: typ})
}

// commitJSON is a commit as GET .../pulls/{number}/commits lists it.
func (s *Server) commitJSON(owner, repo string, c PullCommit) map[string]any {
	name := c.Name
	if name == "" {
		name = c.Author
	}
	date := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC).Format(time.RFC3339)
	person := map[string]any{"name": name, "email": name + "@users.noreply.github.com", "date": date}
	api := s.URL + "/repos/" + owner + "/" + repo
	out := map[string]any{
		"sha": c.SHA, "node_id": "C_fake" + c.SHA,
		"commit": map[string]any{
			"author": person, "committer": person, "message": c.Message,
			"tree":          map[string]any{"sha": gitSHA("tree", []byte(c.SHA)), "url": api + "/git/trees/" + gitSHA("tree", []byte(c.SHA))},
			"url":           api + "/git/commits/" + c.SHA,
			"comment_count": 0,
			"verification":  map[string]any{"verified": false, "reason": "unsigned", "signature": nil, "payload": nil},
		},
		"url": api + "/commits/" + c.SHA, "html_url": "https://github.com/" + owner + "/" + repo + "/commit/" + c.SHA,
		"comments_url": api + "/commits/" + c.SHA + "/comments",
		"author":       s.loginJSON(c.Author), "committer": s.loginJSON(c.Author),
		"parents": []any{},
	}
	return out
}

// pullJSON is a pull request as GitHub's list endpoints give it ("pull
// request simple").
func (s *Server) pullJSON(owner, repo string, pr PullRequest) map[string]any {
	api := s.URL + "/repos/" + owner + "/" + repo
	labels := []any{}
	for i, l := range pr.Labels {
		labels = append(labels, map[string]any{
			"id": 6000000000 + i, "node_id": "LA_fake" + strconv.Itoa(i), "url": api + "/labels/" + l,
			"name": l, "color": "ededed", "default": false, "description": nil,
		})
	}
	state, merged := "open", any(nil)
	var mergeSHA any
	if pr.Merged {
		state, merged, mergeSHA = "closed", "2026-12-01T12:00:00Z", pr.MergeCommitSHA
	}
	var body any
	if pr.Body != "" {
		body = pr.Body
	}
	ref := func(full, r, sha string) map[string]any {
		o, name, _ := strings.Cut(full, "/")
		return map[string]any{"label": o + ":" + r, "ref": r, "sha": sha, "user": s.loginJSON(o),
			"repo": map[string]any{"name": name, "full_name": full, "fork": full != owner+"/"+repo}}
	}
	return map[string]any{
		"url": api + "/pulls/" + strconv.Itoa(pr.Number), "id": 2100000000 + pr.Number, "node_id": fmt.Sprintf("PR_fake%d", pr.Number),
		"html_url": fmt.Sprintf("https://github.com/%s/%s/pull/%d", owner, repo, pr.Number),
		"number":   pr.Number, "state": state, "locked": false, "title": fmt.Sprintf("Pull request %d", pr.Number),
		"user": s.loginJSON(pr.Author), "body": body, "labels": labels,
		"created_at": "2026-11-30T12:00:00Z", "updated_at": "2026-12-01T12:00:00Z",
		"closed_at": merged, "merged_at": merged, "merge_commit_sha": mergeSHA,
		"draft": false, "head": ref(pr.HeadRepo, pr.HeadRef, pr.HeadSHA), "base": ref(owner+"/"+repo, pr.BaseRef, ""),
		"author_association": "CONTRIBUTOR",
	}
}

// paginate sets the Link header of a list of n items as GitHub does
// (per_page 30 by default, at most 100; first, prev, next and last) and
// returns the bounds of the page asked for.
func (s *Server) paginate(w http.ResponseWriter, r *http.Request, n int) (lo, hi int) {
	q := r.URL.Query()
	perPage, _ := strconv.Atoi(q.Get("per_page"))
	if perPage <= 0 {
		perPage = 30
	}
	perPage = min(perPage, 100)
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	lastPage := max(1, (n+perPage-1)/perPage)
	var links []string
	link := func(p int, rel string) {
		q.Set("page", strconv.Itoa(p))
		q.Set("per_page", strconv.Itoa(perPage))
		links = append(links, fmt.Sprintf("<%s%s?%s>; rel=%q", s.URL, r.URL.Path, q.Encode(), rel))
	}
	if page > 1 {
		link(page-1, "prev")
	}
	if page < lastPage {
		link(page+1, "next")
		link(lastPage, "last")
	}
	if page > 1 {
		link(1, "first")
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	lo = min(n, (page-1)*perPage)
	return lo, min(n, page*perPage)
}
