package fakegithub

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
)

// MaxInlineContentSize is the largest file the Contents API returns inline
// (base64); larger files come back with encoding "none" and empty content.
const MaxInlineContentSize = 1 << 20

// Commit is one write to a file held by the fake, seeded or through the API.
type Commit struct {
	SHA     string
	Owner   string
	Repo    string
	Branch  string
	Path    string
	Message string
	Author  string // login of the writer; "seed" for SetFile, "concurrent-writer"
	Content []byte // the file's content after this commit
	BlobSHA string
	Parent  string // previous head of the branch; "" for the first commit
}

type fileKey struct{ owner, repo, branch, path string }

type concurrentWriter struct {
	key    fileKey
	n      int
	change func(old []byte) []byte
}

// SetFile writes content to path on branch (created if needed) as a commit by
// "seed", and returns the new blob sha.
func (s *Server) SetFile(owner, repo, branch, path string, content []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commit(fileKey{owner, repo, branch, path}, "seed", "seed "+path, content).BlobSHA
}

// File returns the current content of path on branch and its blob sha.
func (s *Server) File(owner, repo, branch, path string) (content []byte, sha string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.files[fileKey{owner, repo, branch, path}]
	if !ok {
		return nil, "", false
	}
	return append([]byte(nil), c...), BlobSHA(c), true
}

// Commits returns every commit so far, oldest first.
func (s *Server) Commits() []Commit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Commit(nil), s.commits...)
}

// ConcurrentWriter makes another writer commit change(current content) to
// path on branch just before each of the next n PUTs of that file is
// handled, so those PUTs carry a stale sha and get 409 — the race between two
// jobs updating the same baseline.
func (s *Server) ConcurrentWriter(owner, repo, branch, path string, n int, change func(old []byte) []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writers = append(s.writers, &concurrentWriter{fileKey{owner, repo, branch, path}, n, change})
}

// commit records a write and returns it. s.mu is held.
func (s *Server) commit(k fileKey, author, message string, content []byte) Commit {
	repoKey := k.owner + "/" + k.repo
	if s.branches[repoKey] == nil {
		s.branches[repoKey] = map[string]string{}
	}
	parent := s.branches[repoKey][k.branch]
	content = append([]byte(nil), content...)
	blob := BlobSHA(content)
	c := Commit{
		SHA:   gitSHA("commit", fmt.Appendf(nil, "%d %s %s %s %s", len(s.commits), parent, blob, k.path, message)),
		Owner: k.owner, Repo: k.repo, Branch: k.branch, Path: k.path,
		Message: message, Author: author, Content: content, BlobSHA: blob, Parent: parent,
	}
	s.files[k] = content
	s.blobs[blob] = content
	s.branches[repoKey][k.branch] = c.SHA
	s.commits = append(s.commits, c)
	return c
}

// branchExists reports whether branch exists in owner/repo; the default
// branch always does. s.mu is held.
func (s *Server) branchExists(owner, repo, branch string) bool {
	_, ok := s.branches[owner+"/"+repo][branch]
	return ok || branch == DefaultBranch
}

// getContents serves GET /repos/{owner}/{repo}/contents/{path}?ref=. With
// Accept: application/vnd.github.raw it returns the bytes themselves.
func (s *Server) getContents(w http.ResponseWriter, r *http.Request) {
	owner, repo, p := r.PathValue("owner"), r.PathValue("repo"), strings.Trim(r.PathValue("path"), "/")
	ref := r.URL.Query().Get("ref")
	if ref == "" {
		ref = DefaultBranch
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.branchExists(owner, repo, ref) {
		writeError(w, http.StatusNotFound, "No commit found for the ref "+ref, docGetContent, nil)
		return
	}
	content, ok := s.files[fileKey{owner, repo, ref, p}]
	if !ok {
		writeError(w, http.StatusNotFound, "Not Found", docGetContent, nil)
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "raw") {
		w.Header().Set("Content-Type", "application/vnd.github.raw")
		_, _ = w.Write(content)
		return
	}
	out := s.contentJSON(owner, repo, ref, p, content)
	out["encoding"], out["content"] = "base64", encodeBase64Lines(content)
	if len(content) > MaxInlineContentSize {
		out["encoding"], out["content"] = "none", ""
	}
	writeJSON(w, http.StatusOK, out)
}

// putContents serves PUT /repos/{owner}/{repo}/contents/{path}: create when
// the file is absent (a sha, if given, is ignored, as GitHub does), update
// when sha matches the current blob, 409 when it does not, 422 when it is
// missing for an existing file.
func (s *Server) putContents(w http.ResponseWriter, r *http.Request) {
	if !canWrite(w, r, docPutContent) {
		return
	}
	owner, repo, p := r.PathValue("owner"), r.PathValue("repo"), strings.Trim(r.PathValue("path"), "/")
	var in struct {
		Message *string `json:"message"`
		Content *string `json:"content"`
		SHA     string  `json:"sha"`
		Branch  string  `json:"branch"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON", docPutContent, nil)
		return
	}
	for _, f := range []struct {
		name  string
		value *string
	}{{"message", in.Message}, {"content", in.Content}} {
		if f.value == nil {
			writeError(w, http.StatusUnprocessableEntity, fmt.Sprintf("Invalid request.\n\n%q wasn't supplied.", f.name), docPutContent, nil)
			return
		}
	}
	content, err := base64.StdEncoding.DecodeString(*in.Content)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "content is not valid Base64", docPutContent, nil)
		return
	}
	branch := in.Branch
	if branch == "" {
		branch = DefaultBranch
	}
	k := fileKey{owner, repo, branch, p}

	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.branchExists(owner, repo, branch) {
		writeError(w, http.StatusNotFound, "Branch "+branch+" not found", docPutContent, nil)
		return
	}
	for _, cw := range s.writers {
		if cw.key == k && cw.n > 0 {
			cw.n--
			s.commit(k, "concurrent-writer", "concurrent write", cw.change(s.files[k]))
		}
	}
	old, exists := s.files[k]
	status := http.StatusCreated
	if exists {
		switch {
		case in.SHA == "":
			writeError(w, http.StatusUnprocessableEntity, "Invalid request.\n\n\"sha\" wasn't supplied.", docPutContent, nil)
			return
		case in.SHA != BlobSHA(old):
			writeError(w, http.StatusConflict, fmt.Sprintf("%s does not match %s", p, in.SHA), docPutContent, nil)
			return
		}
		status = http.StatusOK
	}
	c := s.commit(k, identity(r).Login, *in.Message, content)
	treeSHA := gitSHA("tree", []byte(c.SHA))
	repoURL := fmt.Sprintf("%s/repos/%s/%s", s.URL, owner, repo)
	person := map[string]any{"name": identity(r).Login, "email": "41898282+github-actions[bot]@users.noreply.github.com",
		"date": time.Now().UTC().Format(time.RFC3339)}
	parents := []any{}
	if c.Parent != "" {
		parents = append(parents, map[string]any{"sha": c.Parent, "url": repoURL + "/git/commits/" + c.Parent,
			"html_url": fmt.Sprintf("%s/%s/%s/commit/%s", s.URL, owner, repo, c.Parent)})
	}
	writeJSON(w, status, map[string]any{
		"content": s.contentJSON(owner, repo, branch, p, content),
		"commit": map[string]any{
			"sha":          c.SHA,
			"node_id":      "C_kwDOFAKE" + c.SHA[:10],
			"url":          repoURL + "/git/commits/" + c.SHA,
			"html_url":     fmt.Sprintf("%s/%s/%s/commit/%s", s.URL, owner, repo, c.SHA),
			"author":       person,
			"committer":    person,
			"message":      c.Message,
			"tree":         map[string]any{"sha": treeSHA, "url": repoURL + "/git/trees/" + treeSHA},
			"parents":      parents,
			"verification": map[string]any{"verified": false, "reason": "unsigned", "signature": nil, "payload": nil},
		},
	})
}

// getBlob serves GET /repos/{owner}/{repo}/git/blobs/{sha}, as JSON (base64)
// or, with a raw Accept header, as the bytes themselves.
func (s *Server) getBlob(w http.ResponseWriter, r *http.Request) {
	sha := r.PathValue("sha")
	s.mu.Lock()
	content, ok := s.blobs[sha]
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/git/blobs#get-a-blob", nil)
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "raw") {
		w.Header().Set("Content-Type", "application/vnd.github.raw")
		_, _ = w.Write(content)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"sha": sha, "node_id": "B_kwDOFAKE" + sha[:10], "size": len(content),
		"url":     fmt.Sprintf("%s/repos/%s/%s/git/blobs/%s", s.URL, r.PathValue("owner"), r.PathValue("repo"), sha),
		"content": encodeBase64Lines(content), "encoding": "base64",
	})
}

// getRaw serves the download_url of a file, standing in for
// raw.githubusercontent.com.
func (s *Server) getRaw(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	content, ok := s.files[fileKey{r.PathValue("owner"), r.PathValue("repo"), r.PathValue("ref"), r.PathValue("path")}]
	s.mu.Unlock()
	if !ok {
		http.Error(w, "404: Not Found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write(content)
}

// contentJSON is the metadata part of a contents object (no content or
// encoding), as in the "content" field of a PUT response.
func (s *Server) contentJSON(owner, repo, ref, p string, content []byte) map[string]any {
	sha := BlobSHA(content)
	apiURL := fmt.Sprintf("%s/repos/%s/%s/contents/%s?ref=%s", s.URL, owner, repo, p, url.QueryEscape(ref))
	gitURL := fmt.Sprintf("%s/repos/%s/%s/git/blobs/%s", s.URL, owner, repo, sha)
	htmlURL := fmt.Sprintf("%s/%s/%s/blob/%s/%s", s.URL, owner, repo, ref, p)
	return map[string]any{
		"type": "file", "name": path.Base(p), "path": p, "sha": sha, "size": len(content),
		"url": apiURL, "git_url": gitURL, "html_url": htmlURL,
		"download_url": fmt.Sprintf("%s/raw/%s/%s/%s/%s", s.URL, owner, repo, url.PathEscape(ref), p),
		"_links":       map[string]any{"self": apiURL, "git": gitURL, "html": htmlURL},
	}
}

// encodeBase64Lines encodes b as GitHub does in "content": standard base64
// broken into lines of 60 characters, each ending in "\n".
func encodeBase64Lines(b []byte) string {
	enc := base64.StdEncoding.EncodeToString(b)
	var sb strings.Builder
	for len(enc) > 60 {
		sb.WriteString(enc[:60])
		sb.WriteByte('\n')
		enc = enc[60:]
	}
	if enc != "" {
		sb.WriteString(enc)
		sb.WriteByte('\n')
	}
	return sb.String()
}

const (
	docGetContent = "https://docs.github.com/rest/repos/contents#get-repository-content"
	docPutContent = "https://docs.github.com/rest/repos/contents#create-or-update-file-contents"
)
