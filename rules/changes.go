package rules

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// The rules in this file read the plan's changes directly: they apply to
// resource types infra does not price.

// endpointTypes are the serving endpoints endpoint-replacement guards, with
// the noun a reviewer knows them by.
var endpointTypes = map[string]string{
	"aws_sagemaker_endpoint":                                 "SageMaker endpoint",
	"google_vertex_ai_endpoint":                              "Vertex AI endpoint",
	"google_vertex_ai_index_endpoint":                        "Vertex AI index endpoint",
	"google_vertex_ai_endpoint_with_model_garden_deployment": "Vertex AI endpoint",
}

// azapiEndpoint names an azapi_resource that is an Azure ML online
// endpoint or deployment, from its ARM type.
func azapiEndpoint(ch *planparse.Change) string {
	t := strings.ToLower(str(ch.After(), "type") + str(ch.Before(), "type"))
	switch {
	case strings.Contains(t, "microsoft.machinelearningservices/workspaces/onlineendpoints/deployments"):
		return "Azure ML online deployment"
	case strings.Contains(t, "microsoft.machinelearningservices/workspaces/onlineendpoints"):
		return "Azure ML online endpoint"
	case strings.Contains(t, "microsoft.machinelearningservices/workspaces/serverlessendpoints"):
		return "Azure ML serverless endpoint"
	}
	return ""
}

// endpointReplacement: a serving endpoint is destroyed and recreated, or a
// SageMaker endpoint configuration is replaced under a live endpoint that
// keeps using it. Blocks in protected environments, warns elsewhere.
type endpointReplacement struct{}

func (endpointReplacement) severity(s *scope) Severity {
	if s.strict() {
		return SeverityBlock
	}
	return SeverityWarn
}

func (endpointReplacement) check(s *scope) []draft {
	extra := s.cfg.Rules.EndpointReplacement.ExtraTypes
	out := s.spare()
	var msg sentence
	for _, ch := range s.changes {
		if ch.Action != planparse.ActionReplace || ch.Mode == planparse.ModeData {
			continue
		}
		noun := endpointTypes[ch.Type]
		if ch.Type == "azapi_resource" {
			noun = azapiEndpoint(ch)
		}
		if noun == "" && (slices.Contains(extra, ch.Type) || s.isEndpoint(ch)) {
			noun = "endpoint"
		}
		if ch.Type == "aws_sagemaker_endpoint_configuration" {
			out = append(out, s.configUnderLiveEndpoint(ch)...)
			continue
		}
		if noun == "" {
			continue
		}
		msg = msg[:0]
		msg.add(noun, " ")
		msg.code(objectName(ch))
		msg.add(" is destroyed and recreated (")
		msg.forcedBy(ch)
		msg.add(")")
		if ch.ReplaceOrder == planparse.CreateThenDelete {
			msg.add("; callers of the old one break when it is deleted")
		} else {
			msg.add(", so it stops serving until the new one is in service")
		}
		remedy := "Keep the attribute that forces the replacement as it is; to roll out a new model, point the endpoint at a new endpoint configuration instead, which updates it in place without downtime."
		if slices.Contains(ch.ReplacePaths, "name") {
			if old := ch.Before().Get("name"); isDisplayable(old) {
				n, _ := old.Str()
				remedy = fmt.Sprintf("Keep the name %q: an endpoint cannot be renamed, so a new name is a new endpoint with a new URL that every caller must switch to. ", n) + remedy
			}
		}
		if ch.Type != "aws_sagemaker_endpoint" {
			remedy = "Keep the attribute that forces the replacement as it is; to move to a new endpoint, create it alongside the old one, switch callers, then delete the old one."
		}
		if s.unnamed {
			remedy += unnamedRemedy
		}
		out = append(out, draft{address: ch.Address, message: s.texts.keep(msg), remedy: remedy})
	}
	return out
}

// configUnderLiveEndpoint reports a SageMaker endpoint configuration that
// is replaced while an endpoint that is not itself being created or
// replaced uses it.
func (s *scope) configUnderLiveEndpoint(cfg *planparse.Change) []draft {
	cfgName := str(cfg.Before(), "name")
	for _, ep := range s.sagemakerEndpoints() {
		if ep.Before().IsNull() {
			continue
		}
		if ep.Action == planparse.ActionCreate || ep.Action == planparse.ActionDelete || ep.Action == planparse.ActionReplace {
			continue
		}
		if cfgName != "" && str(ep.Before(), "endpoint_config_name") != cfgName {
			continue
		}
		// Blue/green: the new configuration is created first and the
		// endpoint is updated in place onto it (its configuration name
		// changes, or is known only after apply with name_prefix); the old
		// one goes only after. That is the safe rollout, not a replacement.
		if cfg.ReplaceOrder == planparse.CreateThenDelete && movesOff(ep, cfgName) {
			continue
		}
		msg := fmt.Sprintf("SageMaker endpoint configuration %s is destroyed and recreated (%s) while endpoint %s uses it",
			code(objectName(cfg)), forcedBy(cfg), code(objectName(ep)))
		if cfg.ReplaceOrder != planparse.CreateThenDelete {
			msg += "; the endpoint cannot update or scale until it points at the new configuration"
		}
		remedy := "Give the configuration create_before_destroy and a generated name (name_prefix), so the endpoint moves to the new configuration before the old one is deleted."
		if s.unnamed {
			remedy += unnamedRemedy
		}
		return []draft{{address: cfg.Address, message: msg, remedy: remedy}}
	}
	return nil
}

// movesOff reports whether an endpoint's update points it at another
// configuration than cfgName (or at one whose name is known only after apply).
func movesOff(ep *planparse.Change, cfgName string) bool {
	after := ep.After().Get("endpoint_config_name")
	if after.IsUnknown() {
		return true
	}
	name, ok := after.Str()
	return ok && name != "" && name != cfgName
}

// objectName is the cloud name of a changed object (its name attribute,
// before the change when it had one), else the name part of its address.
func objectName(ch *planparse.Change) string {
	for _, key := range []string{"name", "display_name", "bucket", "endpoint_name"} {
		for _, v := range []planparse.Value{ch.Before(), ch.After()} {
			if x := v.Get(key); isDisplayable(x) {
				if s, _ := x.Str(); s != "" {
					return s
				}
			}
		}
	}
	return addressName(ch.Address)
}

// forcedBy says which attributes force a replacement, with their old and
// new values where they are short and not secret.
func forcedBy(ch *planparse.Change) string {
	if len(ch.ReplacePaths) == 0 {
		if ch.Reason != "" {
			return ch.Reason
		}
		return noForcingAttribute
	}
	var t sentence
	t.forcedBy(ch)
	return string(t)
}

const noForcingAttribute = "the plan does not say which attribute forces it"

// forcedBy adds forcedBy(ch).
func (t *sentence) forcedBy(ch *planparse.Change) {
	if len(ch.ReplacePaths) == 0 {
		t.add(forcedBy(ch))
		return
	}
	var diffs map[string]planparse.AttrDiff // the whole diff, made only for a nested path
	for i, p := range ch.ReplacePaths {
		if i > 0 {
			t.add(", ")
		}
		t.code(planparse.ShownPath(p))
		var before, after planparse.Value
		if topAttribute(p) {
			// A top-level attribute is in the diff when its two leaves
			// differ: read the two rather than diffing the whole change.
			// (ARM what-if changes, whose diff is ARM's, have no replace
			// paths.)
			before, after = ch.Before().Get(p), ch.After().Get(p)
		} else {
			if diffs == nil {
				diffs = map[string]planparse.AttrDiff{}
				for _, d := range ch.Diff() {
					diffs[d.Path] = d
				}
			}
			d := diffs[p]
			before, after = d.Before, d.After
		}
		if isDisplayable(before) && isDisplayable(after) {
			// (Two equal leaves are no difference.)
			if b, _ := before.Str(); b != str(after) {
				t.add(" ")
				*t = strconv.AppendQuote(*t, b)
				t.add(" -> ")
				*t = strconv.AppendQuote(*t, str(after))
			}
		}
	}
	if len(ch.ReplacePaths) > 1 {
		t.add(" force the replacement")
	} else {
		t.add(" forces the replacement")
	}
}

// topAttribute reports whether a replace path names a top-level attribute
// (an identifier: the diff's path for it is the name itself).
func topAttribute(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return p != ""
}

// statefulTypes are the resources that hold data, with their nouns.
var statefulTypes = map[string]string{
	"aws_s3_bucket":                             "S3 bucket",
	"aws_s3_directory_bucket":                   "S3 directory bucket",
	"aws_db_instance":                           "RDS database",
	"aws_rds_cluster":                           "RDS cluster",
	"aws_docdb_cluster":                         "DocumentDB cluster",
	"aws_neptune_cluster":                       "Neptune cluster",
	"aws_redshift_cluster":                      "Redshift cluster",
	"aws_dynamodb_table":                        "DynamoDB table",
	"aws_ebs_volume":                            "EBS volume",
	"aws_efs_file_system":                       "EFS file system",
	"aws_fsx_lustre_file_system":                "FSx for Lustre file system",
	"aws_opensearch_domain":                     "OpenSearch domain",
	"aws_elasticsearch_domain":                  "Elasticsearch domain",
	"aws_backup_vault":                          "backup vault",
	"aws_ecr_repository":                        "ECR repository",
	"azurerm_storage_account":                   "storage account",
	"azurerm_storage_container":                 "storage container",
	"azurerm_storage_share":                     "file share",
	"azurerm_storage_data_lake_gen2_filesystem": "Data Lake filesystem",
	"azurerm_managed_disk":                      "managed disk",
	"azurerm_mssql_server":                      "SQL server",
	"azurerm_mssql_database":                    "SQL database",
	"azurerm_postgresql_server":                 "PostgreSQL server",
	"azurerm_postgresql_flexible_server":        "PostgreSQL server",
	"azurerm_mysql_flexible_server":             "MySQL server",
	"azurerm_cosmosdb_account":                  "Cosmos DB account",
	"azurerm_netapp_volume":                     "NetApp volume",
	"google_storage_bucket":                     "Cloud Storage bucket",
	"google_sql_database_instance":              "Cloud SQL instance",
	"google_sql_database":                       "Cloud SQL database",
	"google_compute_disk":                       "persistent disk",
	"google_compute_region_disk":                "regional persistent disk",
	"google_bigquery_dataset":                   "BigQuery dataset",
	"google_bigquery_table":                     "BigQuery table",
	"google_spanner_instance":                   "Spanner instance",
	"google_spanner_database":                   "Spanner database",
	"google_bigtable_instance":                  "Bigtable instance",
	"google_bigtable_table":                     "Bigtable table",
	"google_filestore_instance":                 "Filestore instance",
	"google_firestore_database":                 "Firestore database",
	"google_alloydb_cluster":                    "AlloyDB cluster",
}

// statefulDelete: a resource that holds data is deleted or replaced. An
// in-place update (a lifecycle rule, a tag) and a forget are not deletes.
type statefulDelete struct{}

func (statefulDelete) severity(*scope) Severity { return SeverityBlock }

func (statefulDelete) check(s *scope) []draft {
	extra := s.cfg.Rules.StatefulDelete.ExtraTypes
	out := s.spare()
	var msg sentence
	for _, ch := range s.changes {
		if ch.Mode == planparse.ModeData || ch.Action != planparse.ActionDelete && ch.Action != planparse.ActionReplace {
			continue
		}
		noun, ok := statefulTypes[ch.Type]
		if !ok {
			if !slices.Contains(extra, ch.Type) {
				continue
			}
			noun = ch.Type
		}
		msg = msg[:0]
		msg.add(noun, " ")
		msg.code(objectName(ch))
		if ch.Action == planparse.ActionDelete {
			msg.add(" is deleted, and the data in it with it")
		} else {
			msg.add(" is destroyed and recreated (")
			msg.forcedBy(ch)
			msg.add("), so the data in it is lost")
		}
		out = append(out, draft{
			address: ch.Address, message: s.texts.keep(msg),
			remedy: "If the data must go, back it up first and say so in the pull request; otherwise keep the resource (a rename of the Terraform address is a moved block, not a delete) and consider lifecycle { prevent_destroy = true }.",
		})
	}
	return out
}

// iamAdmin: a role, user or group is granted administrator rights: the
// AdministratorAccess managed policy, a policy document allowing * on *,
// or the Owner role of a GCP project or Azure scope. Only grants that are
// new in this plan count.
type iamAdmin struct{}

func (iamAdmin) severity(*scope) Severity { return SeverityBlock }

func (iamAdmin) check(s *scope) []draft {
	out := s.spare()
	for _, ch := range s.changes {
		if ch.Mode == planparse.ModeData || !changing(ch.Action) || !grantsAccess(ch.Type) {
			continue
		}
		after := adminGrants(ch.Type, ch.After())
		if len(after) == 0 {
			continue
		}
		before := adminGrants(ch.Type, ch.Before())
		var fresh []string
		for _, g := range after {
			if !slices.Contains(before, g) {
				fresh = append(fresh, g)
			}
		}
		if len(fresh) == 0 {
			continue
		}
		out = append(out, draft{
			address: ch.Address,
			message: fmt.Sprintf("%s %s", grantee(ch), strings.Join(fresh, " and ")),
			remedy:  "Grant only the actions and resources the workload needs; if full administrator rights are really intended, have a security owner approve the pull request.",
		})
	}
	return out
}

// grantee names who gets the grant: "IAM role `trainer`", or "the IAM
// role of `aws_iam_role_policy.p`" when the role is known only after apply.
func grantee(ch *planparse.Change) string {
	a := ch.After()
	named := func(noun, attr string) string {
		if v := a.Get(attr); isDisplayable(v) {
			if s, _ := v.Str(); s != "" {
				return noun + " " + code(addressName(s))
			}
		}
		return "the " + noun + " of " + code(ch.Address)
	}
	switch {
	case ch.Type == "aws_iam_role":
		return "IAM role " + code(objectName(ch))
	case ch.Type == "aws_iam_policy":
		return "IAM policy " + code(objectName(ch))
	case strings.HasPrefix(ch.Type, "aws_iam_role_"):
		return named("IAM role", "role")
	case strings.HasPrefix(ch.Type, "aws_iam_user_"):
		return named("IAM user", "user")
	case strings.HasPrefix(ch.Type, "aws_iam_group_"):
		return named("IAM group", "group")
	case str(a, "member") != "":
		return code(planparse.ShownName(str(a, "member")))
	case a.Get("members").Len() > 0:
		var m []string
		for _, v := range a.Get("members").List() {
			if s, ok := v.Str(); ok {
				m = append(m, code(planparse.ShownName(s)))
			}
		}
		return strings.Join(m, ", ")
	case str(a, "principal_id") != "":
		return "principal " + code(planparse.ShownName(str(a, "principal_id")))
	}
	return code(ch.Address)
}

const adminPolicy = ":policy/AdministratorAccess"

// awsGrantKeys are the attributes of an AWS IAM resource that can grant
// administrator rights: managed policy ARNs (one, then two lists) and
// policy documents (one, then the inline policies' list).
var awsGrantKeys = [...]string{"policy_arn", "managed_policy_arns", "policy_arns", "policy", "inline_policy"}

// grantsAccess reports whether a resource type can grant the access
// adminGrants looks for; other types are not decoded at all.
func grantsAccess(typ string) bool {
	return strings.HasPrefix(typ, "aws_iam_") || typ == "azurerm_role_assignment" ||
		strings.HasPrefix(typ, "google_") && strings.Contains(typ, "_iam_")
}

// adminGrants lists the administrator grants a resource's value makes,
// in words: "gets AdministratorAccess", "allows every action on every
// resource (Allow * on *)".
func adminGrants(typ string, v planparse.Value) []string {
	if v.IsNull() {
		return nil
	}
	var out []string
	add := func(g string) {
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	if strings.HasPrefix(typ, "aws_iam_") {
		// The five attributes are read in one walk of the object.
		var at [len(awsGrantKeys)]planparse.Value
		v.Fields(awsGrantKeys[:], at[:])
		arn := func(a planparse.Value) {
			if s, ok := a.Str(); ok && strings.HasSuffix(s, adminPolicy) {
				add("gets AdministratorAccess")
			}
		}
		arn(at[0])
		for _, list := range at[1:3] {
			if list.IsList() {
				for _, a := range list.List() {
					arn(a)
				}
			}
		}
		doc := func(d planparse.Value) {
			if s, ok := d.Str(); ok && allowsStarOnStar(s) {
				add("allows every action on every resource (Allow * on *)")
			}
		}
		doc(at[3])
		if at[4].IsList() {
			for _, ip := range at[4].List() {
				doc(ip.Get("policy"))
			}
		}
	}
	switch {
	case strings.HasPrefix(typ, "google_") && strings.Contains(typ, "_iam_"):
		if str(v, "role") == "roles/owner" {
			add("gets roles/owner")
		}
	case typ == "azurerm_role_assignment":
		if strings.EqualFold(str(v, "role_definition_name"), "Owner") {
			add("gets the Owner role")
		}
	}
	return out
}

// allowsStarOnStar reports whether an IAM policy document has a statement
// that allows every action on every resource.
func allowsStarOnStar(doc string) bool {
	// Without escapes, the decoded text holds the bytes as written: an
	// Allow of "*" (or "*:*") on "*" needs the word and two stars.
	if !strings.Contains(doc, "\\") && (strings.Count(doc, "*") < 2 || !strings.Contains(doc, "Allow")) {
		return false
	}
	var d struct {
		Statement json.RawMessage
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil || len(d.Statement) == 0 {
		return false
	}
	type statement struct {
		Effect   string
		Action   json.RawMessage
		Resource json.RawMessage
	}
	var list []statement
	if err := json.Unmarshal(d.Statement, &list); err != nil {
		var one statement
		if err := json.Unmarshal(d.Statement, &one); err != nil {
			return false
		}
		list = []statement{one}
	}
	for _, st := range list {
		if st.Effect == "Allow" && hasStar(st.Action, "*", "*:*") && hasStar(st.Resource, "*") {
			return true
		}
	}
	return false
}

// hasStar reports whether a string-or-list JSON value holds one of stars.
func hasStar(raw json.RawMessage, stars ...string) bool {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return slices.Contains(stars, one)
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		for _, s := range list {
			if slices.Contains(stars, s) {
				return true
			}
		}
	}
	return false
}

// planErrored: a plan that failed part way lists only some of its
// changes, so nothing can be concluded from it.
type planErrored struct{}

func (planErrored) severity(*scope) Severity { return SeverityBlock }

func (planErrored) check(s *scope) []draft {
	if s.project.Plan == nil || !s.project.Plan.Errored {
		return nil
	}
	file := ""
	if f := path.Base(s.project.Plan.File); f != "" && f != "-" && f != "." && f != s.project.Name {
		file = " (" + f + ")"
	}
	return []draft{{
		message: fmt.Sprintf("the plan of project %s%s errored part way, so its list of changes is incomplete and cannot be reviewed", code(s.project.Name), file),
		remedy:  "Fix the errors of the plan step in CI and push again; planwarden passes only complete plans.",
	}}
}
