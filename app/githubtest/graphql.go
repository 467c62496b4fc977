package githubtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"
)

// GraphQLPath is where the fake serves GraphQL, as GitHub Enterprise
// Server does (/api/graphql next to /api/v3).
const GraphQLPath = "/api/graphql"

// graphqlSchema is the part of GitHub's public GraphQL schema
// (https://docs.github.com/graphql, schema.docs.graphql) that the fake
// serves: the minimizeComment mutation with its input, enum and payload
// types as GitHub declares them. Every query the bot sends is parsed and
// validated against it, variables included, so a misspelt field, a
// missing subjectId or a classifier GitHub does not know fails the test.
const graphqlSchema = `
scalar DateTime
schema { query: Query mutation: Mutation }
type Query { viewer: User! }
type User { login: String! }
type Mutation {
  "Minimizes a comment on an Issue, Commit, Pull Request, or Gist"
  minimizeComment(input: MinimizeCommentInput!): MinimizeCommentPayload
}
input MinimizeCommentInput {
  classifier: ReportedContentClassifiers!
  clientMutationId: String
  subjectId: ID!
}
enum ReportedContentClassifiers { ABUSE DUPLICATE OFF_TOPIC OUTDATED RESOLVED SPAM }
type MinimizeCommentPayload {
  clientMutationId: String
  minimizedComment: Minimizable
}
interface Minimizable {
  isMinimized: Boolean!
  minimizedReason: String
  viewerCanMinimize: Boolean!
}
type IssueComment implements Minimizable {
  id: ID!
  isMinimized: Boolean!
  minimizedReason: String
  viewerCanMinimize: Boolean!
  body: String!
  createdAt: DateTime!
}
`

var gqlSchema = gqlparser.MustLoadSchema(&ast.Source{Name: "github-excerpt.graphql", Input: graphqlSchema})

// GraphQLCall is one GraphQL request the bot made.
type GraphQLCall struct {
	Query     string
	Variables map[string]any
}

// GraphQLCalls returns the GraphQL requests so far, in order.
func (s *Server) GraphQLCalls() []GraphQLCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]GraphQLCall(nil), s.graphql...)
}

type gqlError struct {
	Type    string   `json:"type,omitempty"`
	Path    []string `json:"path,omitempty"`
	Message string   `json:"message"`
}

func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	if a := strings.ToLower(strings.SplitN(r.Header.Get("Authorization"), " ", 2)[0]); a != "token" && a != "bearer" {
		s.t.Errorf("githubtest: POST %s with Authorization %q, want an installation token", GraphQLPath, a)
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "This endpoint requires you to be authenticated."})
		return
	}
	var in struct {
		Query         string         `json:"query"`
		Variables     map[string]any `json:"variables"`
		OperationName string         `json:"operationName"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		s.t.Errorf("githubtest: GraphQL body is not JSON: %v", err)
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	s.mu.Lock()
	s.graphql = append(s.graphql, GraphQLCall{Query: in.Query, Variables: in.Variables})
	s.mu.Unlock()
	doc, errs := gqlparser.LoadQueryWithRules(gqlSchema, in.Query, nil) // nil: the default rules
	if len(errs) > 0 {
		s.t.Errorf("githubtest: GraphQL query does not match GitHub's schema: %v\n%s", errs, in.Query)
		writeJSON(w, http.StatusOK, map[string]any{"errors": []gqlError{{Message: errs.Error()}}})
		return
	}
	op := doc.Operations.ForName(in.OperationName)
	if op == nil {
		s.t.Errorf("githubtest: GraphQL request names no operation the query has (%q)", in.OperationName)
		writeJSON(w, http.StatusOK, map[string]any{"errors": []gqlError{{Message: "operation not found"}}})
		return
	}
	vars, err := validator.VariableValues(gqlSchema, op, in.Variables)
	if err != nil {
		s.t.Errorf("githubtest: GraphQL variables do not match GitHub's schema: %v", err)
		writeJSON(w, http.StatusOK, map[string]any{"errors": []gqlError{{Message: err.Error()}}})
		return
	}
	data := map[string]any{}
	var gerrs []gqlError
	for _, sel := range op.SelectionSet {
		f, ok := sel.(*ast.Field)
		if !ok || f.Name != "minimizeComment" {
			s.t.Errorf("githubtest: the fake serves only the minimizeComment mutation, got %T %v", sel, sel)
			continue
		}
		input, _ := f.Arguments.ForName("input").Value.Value(vars)
		m, _ := input.(map[string]any)
		id, _ := m["subjectId"].(string)
		classifier, _ := m["classifier"].(string)
		if s.minimize(id, classifier) {
			data[f.Alias] = map[string]any{"minimizedComment": map[string]any{"isMinimized": true, "minimizedReason": strings.ToLower(classifier)}}
			continue
		}
		data[f.Alias] = nil
		gerrs = append(gerrs, gqlError{Type: "NOT_FOUND", Path: []string{f.Alias}, Message: fmt.Sprintf("Could not resolve to a node with the global id of '%s'", id)})
	}
	out := map[string]any{"data": data}
	if len(gerrs) > 0 {
		out["errors"] = gerrs
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) minimize(nodeID, classifier string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.comments {
		if c.NodeID == nodeID {
			c.Minimized, c.MinimizedReason = true, classifier
			return true
		}
	}
	return false
}
