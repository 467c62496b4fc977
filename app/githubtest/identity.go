package githubtest

import (
	"net/http"
	"strings"
)

// TokenUser makes requests authenticated with token act as login: the
// comments they create are login's, and GET /user answers with login
// when it is a person's account (a personal access token). Logins ending
// in [bot] are Apps' accounts (a workflow's GITHUB_TOKEN, an App's
// installation token), for which GitHub answers GET /user with 403.
// Tokens not given here act as BotLogin.
func (s *Server) TokenUser(token, login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tokenUsers == nil {
		s.tokenUsers = map[string]string{}
	}
	s.tokenUsers[token] = login
}

// actorLocked is the login a request acts as; s.mu is held.
func (s *Server) actorLocked(r *http.Request) string {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if strings.EqualFold(scheme, "token") {
		if login, ok := s.tokenUsers[token]; ok {
			return login
		}
	}
	return BotLogin
}

// isBot says whether a login is an App's account.
func isBot(login string) bool { return strings.HasSuffix(login, "[bot]") }

func userType(login string) string {
	if isBot(login) {
		return "Bot"
	}
	return "User"
}

func (s *Server) getUser(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	login := s.actorLocked(r)
	s.mu.Unlock()
	if isBot(login) {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration", "documentation_url": "https://docs.github.com/rest/users/users#get-the-authenticated-user"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"login": login, "id": 4242, "type": "User"})
}
