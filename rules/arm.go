package rules

import "strings"

// armStatefulTypes are the ARM types (Bicep, ARM templates, read from a
// what-if) that hold data, for stateful-delete. A what-if in Complete mode
// deletes every resource the template no longer declares, so these matter
// there most.
var armStatefulTypes = map[string]string{
	"Microsoft.Storage/storageAccounts":                         "storage account",
	"Microsoft.Storage/storageAccounts/blobServices/containers": "storage container",
	"Microsoft.Storage/storageAccounts/fileServices/shares":     "file share",
	"Microsoft.Compute/disks":                                   "managed disk",
	"Microsoft.Sql/servers":                                     "SQL server",
	"Microsoft.Sql/servers/databases":                           "SQL database",
	"Microsoft.DBforPostgreSQL/flexibleServers":                 "PostgreSQL server",
	"Microsoft.DBforMySQL/flexibleServers":                      "MySQL server",
	"Microsoft.DocumentDB/databaseAccounts":                     "Cosmos DB account",
	"Microsoft.NetApp/netAppAccounts/capacityPools/volumes":     "NetApp volume",
	"Microsoft.KeyVault/vaults":                                 "key vault",
	"Microsoft.MachineLearningServices/workspaces":              "Azure ML workspace",
}

func init() {
	for t, noun := range armStatefulTypes {
		// ARM type names are case-insensitive; what-if ids and payloads
		// spell them as ARM does, or in lower case.
		statefulTypes[t] = noun
		statefulTypes[strings.ToLower(t)] = noun
	}
}
