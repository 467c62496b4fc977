package infra

// hourlyUnestimated are resource types that bill by the hour (or by the
// provisioned hour) that planwarden does not estimate: databases, caches,
// load balancers, NAT gateways, managed control planes, serving endpoints
// billed other than by a VM rate. (Disks are priced: see Disk.) A plan's
// cost totals leave them out; review lists them once as "not estimated",
// so a total never reads as the whole bill.
var hourlyUnestimated = map[string]string{
	"aws_db_instance":                          "database",
	"aws_rds_cluster":                          "database",
	"aws_rds_cluster_instance":                 "database",
	"aws_docdb_cluster_instance":               "database",
	"aws_neptune_cluster_instance":             "database",
	"aws_redshift_cluster":                     "database",
	"aws_elasticache_cluster":                  "cache",
	"aws_elasticache_replication_group":        "cache",
	"aws_opensearch_domain":                    "search cluster",
	"aws_elasticsearch_domain":                 "search cluster",
	"aws_lb":                                   "load balancer",
	"aws_alb":                                  "load balancer",
	"aws_elb":                                  "load balancer",
	"aws_nat_gateway":                          "NAT gateway",
	"aws_eks_cluster":                          "control plane",
	"aws_msk_cluster":                          "Kafka cluster",
	"aws_mq_broker":                            "message broker",
	"azurerm_lb":                               "load balancer",
	"azurerm_application_gateway":              "load balancer",
	"azurerm_nat_gateway":                      "NAT gateway",
	"azurerm_mssql_database":                   "database",
	"azurerm_mssql_server":                     "database",
	"azurerm_postgresql_flexible_server":       "database",
	"azurerm_mysql_flexible_server":            "database",
	"azurerm_cosmosdb_account":                 "database",
	"azurerm_redis_cache":                      "cache",
	"azurerm_firewall":                         "firewall",
	"azurerm_virtual_network_gateway":          "VPN gateway",
	"google_sql_database_instance":             "database",
	"google_redis_instance":                    "cache",
	"google_compute_router_nat":                "NAT gateway",
	"google_container_cluster":                 "control plane",
	"google_alloydb_instance":                  "database",
	"google_spanner_instance":                  "database",
	"google_vertex_ai_endpoint":                "serving endpoint",
	"google_vertex_ai_index_endpoint":          "serving endpoint",
	"aws_bedrock_provisioned_model_throughput": "provisioned model throughput",
	"azurerm_cognitive_deployment":             "model deployment",
	"databricks_model_serving":                 "serving endpoint",
	"aws_sagemaker_inference_component":        "inference component",
}

// notEstimatedReasons say why a type is not estimated where the kind
// alone does not: serving endpoints that bill other than by a VM rate.
var notEstimatedReasons = map[string]string{
	"google_vertex_ai_endpoint":                "bills the nodes of the models deployed to it, which the plan does not describe",
	"google_vertex_ai_index_endpoint":          "bills the nodes of the indexes deployed to it, which the plan does not describe",
	"aws_bedrock_provisioned_model_throughput": "billed per model unit and commitment term, not in the catalog",
	"azurerm_cognitive_deployment":             "billed per token or per provisioned throughput unit, not in the catalog",
	"databricks_model_serving":                 "billed in Databricks units (DBUs), not in the catalog",
	"aws_sagemaker_inference_component":        "runs on its endpoint's instances, which are priced with the endpoint",
}

// NotEstimatedReason says why a type NotEstimated reports is left out.
func NotEstimatedReason(resourceType string) string {
	if r, ok := notEstimatedReasons[resourceType]; ok {
		return r
	}
	return "billed by the hour, not in planwarden's catalog"
}

// NotEstimated reports whether a resource type bills by the hour but
// planwarden does not estimate it, and what kind of thing it is
// ("database", "disk", "load balancer", ...).
func NotEstimated(resourceType string) (kind string, ok bool) {
	kind, ok = hourlyUnestimated[resourceType]
	return kind, ok
}
