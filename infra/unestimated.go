package infra

// hourlyUnestimated are resource types that bill by the hour (or by the
// provisioned hour) that planwarden does not estimate: databases, caches,
// disks, load balancers, NAT gateways, managed control planes. A plan's
// cost totals leave them out; review lists them once as "not estimated",
// so a total never reads as the whole bill.
var hourlyUnestimated = map[string]string{
	"aws_db_instance":                    "database",
	"aws_rds_cluster":                    "database",
	"aws_rds_cluster_instance":           "database",
	"aws_docdb_cluster_instance":         "database",
	"aws_neptune_cluster_instance":       "database",
	"aws_redshift_cluster":               "database",
	"aws_elasticache_cluster":            "cache",
	"aws_elasticache_replication_group":  "cache",
	"aws_opensearch_domain":              "search cluster",
	"aws_elasticsearch_domain":           "search cluster",
	"aws_ebs_volume":                     "disk",
	"aws_lb":                             "load balancer",
	"aws_alb":                            "load balancer",
	"aws_elb":                            "load balancer",
	"aws_nat_gateway":                    "NAT gateway",
	"aws_eks_cluster":                    "control plane",
	"aws_msk_cluster":                    "Kafka cluster",
	"aws_mq_broker":                      "message broker",
	"azurerm_managed_disk":               "disk",
	"azurerm_lb":                         "load balancer",
	"azurerm_application_gateway":        "load balancer",
	"azurerm_nat_gateway":                "NAT gateway",
	"azurerm_mssql_database":             "database",
	"azurerm_mssql_server":               "database",
	"azurerm_postgresql_flexible_server": "database",
	"azurerm_mysql_flexible_server":      "database",
	"azurerm_cosmosdb_account":           "database",
	"azurerm_redis_cache":                "cache",
	"azurerm_firewall":                   "firewall",
	"azurerm_virtual_network_gateway":    "VPN gateway",
	"google_sql_database_instance":       "database",
	"google_redis_instance":              "cache",
	"google_compute_disk":                "disk",
	"google_compute_router_nat":          "NAT gateway",
	"google_container_cluster":           "control plane",
	"google_alloydb_instance":            "database",
	"google_spanner_instance":            "database",
}

// NotEstimated reports whether a resource type bills by the hour but
// planwarden does not estimate it, and what kind of thing it is
// ("database", "disk", "load balancer", ...).
func NotEstimated(resourceType string) (kind string, ok bool) {
	kind, ok = hourlyUnestimated[resourceType]
	return kind, ok
}
