package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxCommentChars is GitHub's limit on an issue comment body.
const MaxCommentChars = 65536

// Comment is an issue or pull request comment held by the fake.
type Comment struct {
	ID        int64
	Owner     string
	Repo      string
	Number    int
	Body      string
	Login     string
	UserType  string // "Bot" or "User"
	CreatedAt time.Time
	UpdatedAt time.Time
}

// AddComment seeds a comment as if login (of type "Bot" or "User") had
// written it, and returns it.
func (s *Server) AddComment(owner, repo string, number int, login, userType, body string) Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *s.addComment(owner, repo, number, Identity{Login: login, Type: userType}, body)
}

func (s *Server) addComment(owner, repo string, number int, id Identity, body string) *Comment {
	s.nextID++
	now := time.Now().UTC().Truncate(time.Second)
	c := &Comment{ID: s.nextID, Owner: owner, Repo: repo, Number: number, Body: body,
		Login: id.Login, UserType: id.Type, CreatedAt: now, UpdatedAt: now}
	s.comments = append(s.comments, c)
	return c
}

// Comments returns the comments on one issue or pull request, oldest first.
func (s *Server) Comments(owner, repo string, number int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.issueComments(owner, repo, number) {
		out = append(out, *c)
	}
	return out
}

func (s *Server) issueComments(owner, repo string, number int) []*Comment {
	var out []*Comment
	for _, c := range s.comments {
		if c.Owner == owner && c.Repo == repo && c.Number == number {
			out = append(out, c)
		}
	}
	return out
}

// listComments serves GET /repos/{owner}/{repo}/issues/{number}/comments,
// paginated like GitHub: per_page defaults to 30 and is capped at 100, and the
// Link header carries first/prev/next/last.
func (s *Server) listComments(w http.ResponseWriter, r *http.Request) {
	owner, repo := r.PathValue("owner"), r.PathValue("repo")
	number, err := strconv.Atoi(r.PathValue("number"))
	if err != nil {
		writeError(w, http.StatusNotFound, "Not Found", docListComments, nil)
		return
	}
	s.mu.Lock()
	all := s.issueComments(owner, repo, number)
	s.mu.Unlock()
	lo, hi := s.paginate(w, r, len(all))
	out := []any{}
	s.mu.Lock()
	for _, c := range all[lo:hi] {
		out = append(out, s.commentJSON(c))
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// createComment serves POST /repos/{owner}/{repo}/issues/{number}/comments.
func (s *Server) createComment(w http.ResponseWriter, r *http.Request) {
	if !canWrite(w, r, docCreateComment) {
		return
	}
	number, err := strconv.Atoi(r.PathValue("number"))
	if err != nil {
		writeError(w, http.StatusNotFound, "Not Found", docCreateComment, nil)
		return
	}
	body, ok := commentBody(w, r, docCreateComment)
	if !ok {
		return
	}
	s.mu.Lock()
	c := s.addComment(r.PathValue("owner"), r.PathValue("repo"), number, identity(r), body)
	out := s.commentJSON(c)
	s.mu.Unlock()
	w.Header().Set("Location", out["url"].(string))
	writeJSON(w, http.StatusCreated, out)
}

// updateComment serves PATCH /repos/{owner}/{repo}/issues/comments/{id}.
func (s *Server) updateComment(w http.ResponseWriter, r *http.Request) {
	if !canWrite(w, r, docUpdateComment) {
		return
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	body, ok := commentBody(w, r, docUpdateComment)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.comments {
		if c.ID == id && c.Owner == r.PathValue("owner") && c.Repo == r.PathValue("repo") {
			if !canEdit(w, identity(r), c) {
				return
			}
			c.Body = body
			c.UpdatedAt = time.Now().UTC().Truncate(time.Second)
			writeJSON(w, http.StatusOK, s.commentJSON(c))
			return
		}
	}
	writeError(w, http.StatusNotFound, "Not Found", docUpdateComment, nil)
}

// canEdit answers 403, as GitHub does, when the caller is not the
// comment's author: a token may only edit its own comments. (GitHub also
// lets collaborators with write access edit others' comments in the web
// UI; an integration token gets "Resource not accessible by integration",
// which is the case the fake models for every token.)
func canEdit(w http.ResponseWriter, id Identity, c *Comment) bool {
	if strings.EqualFold(id.Login, c.Login) {
		return true
	}
	writeError(w, http.StatusForbidden, "Resource not accessible by integration", docUpdateComment, nil)
	return false
}

// commentBody decodes {"body": ...} and enforces GitHub's validation,
// including the 65,536-character limit.
func commentBody(w http.ResponseWriter, r *http.Request, docURL string) (string, bool) {
	var in struct {
		Body *string `json:"body"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON", docURL, nil)
		return "", false
	}
	switch {
	case in.Body == nil || *in.Body == "":
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed", docURL,
			[]validationError{{Resource: "IssueComment", Code: "missing_field", Field: "body"}})
		return "", false
	case utf8.RuneCountInString(*in.Body) > MaxCommentChars:
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed", docURL,
			[]validationError{{Resource: "IssueComment", Code: "custom", Field: "body",
				Message: fmt.Sprintf("body is too long (maximum is %d characters)", MaxCommentChars)}})
		return "", false
	}
	return *in.Body, true
}

// commentJSON renders c as the REST API does. s.mu is held.
func (s *Server) commentJSON(c *Comment) map[string]any {
	repoURL := fmt.Sprintf("%s/repos/%s/%s", s.URL, c.Owner, c.Repo)
	return map[string]any{
		"id":                 c.ID,
		"node_id":            fmt.Sprintf("IC_kwDOFAKE%d", c.ID),
		"url":                fmt.Sprintf("%s/issues/comments/%d", repoURL, c.ID),
		"html_url":           fmt.Sprintf("%s/%s/%s/pull/%d#issuecomment-%d", s.URL, c.Owner, c.Repo, c.Number, c.ID),
		"issue_url":          fmt.Sprintf("%s/issues/%d", repoURL, c.Number),
		"body":               c.Body,
		"created_at":         c.CreatedAt.Format(time.RFC3339),
		"updated_at":         c.UpdatedAt.Format(time.RFC3339),
		"user":               s.userJSON(Identity{Login: c.Login, Type: c.UserType}),
		"author_association": "NONE",
	}
}

// userJSON renders an account as the REST API's simple user object.
func (s *Server) userJSON(id Identity) map[string]any {
	userID := int64(actionsBotID)
	if id.Login != ActionsBot.Login {
		userID = int64(len(id.Login))*7919 + 1
	}
	return map[string]any{
		"login":      id.Login,
		"id":         userID,
		"node_id":    fmt.Sprintf("MDQ6VXNlcjE%d", userID),
		"type":       id.Type,
		"site_admin": false,
		"url":        s.URL + "/users/" + url.PathEscape(id.Login),
		"html_url":   s.URL + "/" + url.PathEscape(id.Login),
	}
}

// getUser serves GET /user, the authenticated account: a user's token
// gets its account; an installation token (GITHUB_TOKEN, a GitHub App's)
// gets 403 "Resource not accessible by integration", as on GitHub, since
// it acts for no user.
func (s *Server) getUser(w http.ResponseWriter, r *http.Request) {
	id := identity(r)
	if id.Type != "User" {
		writeError(w, http.StatusForbidden, "Resource not accessible by integration", docGetUser, nil)
		return
	}
	writeJSON(w, http.StatusOK, s.userJSON(id))
}

const (
	docListComments  = "https://docs.github.com/rest/issues/comments#list-issue-comments"
	docCreateComment = "https://docs.github.com/rest/issues/comments#create-an-issue-comment"
	docUpdateComment = "https://docs.github.com/rest/issues/comments#update-an-issue-comment"
	docGetUser       = "https://docs.github.com/rest/users/users#get-the-authenticated-user"
)
