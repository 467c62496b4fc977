// A GPU training VM (with its NVIDIA driver extension) and an AKS cluster
// with a GPU agent pool: the Bicep side of planwarden's stories. CI runs
// `az deployment group what-if` on it and uploads the result for review
// (see ../workflows/planwarden-whatif.yml and README.md here).

@description('Region of every resource.')
param location string = resourceGroup().location

// The only guard Bicep has against a costly typo: the VM size must be one
// of these. The GPU pool below has no such list, which is where the typo
// story happens.
@description('Size of the training VM.')
@allowed([
  'Standard_NC24ads_A100_v4'
  'Standard_NC48ads_A100_v4'
  'Standard_NC40ads_H100_v5'
])
param vmSize string = 'Standard_NC24ads_A100_v4'

@description('Size of the AKS GPU pool nodes.')
param gpuPoolVmSize string = 'Standard_NC24ads_A100_v4'

@description('Nodes of the GPU pool, between 1 and 4 with the autoscaler.')
@minValue(1)
@maxValue(4)
param gpuPoolCount int = 2

@description('Admin user of the VM.')
param adminUsername string = 'azureuser'

@description('SSH public key of the admin user.')
param sshPublicKey string

@description('Cost centre every GPU resource is billed to.')
param costCenter string = 'ml-research'

var tags = {
  'cost-center': costCenter
  team: 'ml-platform'
}

resource vnet 'Microsoft.Network/virtualNetworks@2023-11-01' = {
  name: 'ml-vnet'
  location: location
  tags: tags
  properties: {
    addressSpace: { addressPrefixes: [ '10.20.0.0/16' ] }
    subnets: [
      { name: 'vms', properties: { addressPrefix: '10.20.1.0/24' } }
    ]
  }
}

resource nic 'Microsoft.Network/networkInterfaces@2023-11-01' = {
  name: 'trainer-nic'
  location: location
  tags: tags
  properties: {
    ipConfigurations: [
      {
        name: 'ipconfig1'
        properties: {
          subnet: { id: vnet.properties.subnets[0].id }
          privateIPAllocationMethod: 'Dynamic'
        }
      }
    ]
  }
}

resource trainer 'Microsoft.Compute/virtualMachines@2024-03-01' = {
  name: 'trainer'
  location: location
  tags: tags
  properties: {
    hardwareProfile: { vmSize: vmSize }
    storageProfile: {
      imageReference: {
        publisher: 'microsoft-dsvm'
        offer: 'ubuntu-hpc'
        sku: '2204'
        version: 'latest'
      }
      osDisk: { createOption: 'FromImage', osType: 'Linux', diskSizeGB: 256 }
    }
    osProfile: {
      computerName: 'trainer'
      adminUsername: adminUsername
      linuxConfiguration: {
        disablePasswordAuthentication: true
        ssh: {
          publicKeys: [
            { path: '/home/${adminUsername}/.ssh/authorized_keys', keyData: sshPublicKey }
          ]
        }
      }
    }
    networkProfile: { networkInterfaces: [ { id: nic.id } ] }
  }
}

resource nvidiaDriver 'Microsoft.Compute/virtualMachines/extensions@2024-03-01' = {
  parent: trainer
  name: 'NvidiaGpuDriverLinux'
  location: location
  tags: tags
  properties: {
    publisher: 'Microsoft.HpcCompute'
    type: 'NvidiaGpuDriverLinux'
    typeHandlerVersion: '1.9'
    autoUpgradeMinorVersion: true
  }
}

resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' = {
  name: 'ml-prod'
  location: location
  tags: tags
  identity: { type: 'SystemAssigned' }
  properties: {
    dnsPrefix: 'ml-prod'
    agentPoolProfiles: [
      {
        name: 'system'
        mode: 'System'
        vmSize: 'Standard_D4s_v5'
        count: 3
        osType: 'Linux'
      }
    ]
  }
}

resource gpuPool 'Microsoft.ContainerService/managedClusters/agentPools@2024-02-01' = {
  parent: aks
  name: 'gpu'
  properties: {
    mode: 'User'
    vmSize: gpuPoolVmSize
    count: gpuPoolCount
    enableAutoScaling: true
    minCount: 1
    maxCount: 4
    osType: 'Linux'
    nodeLabels: { hardware: 'gpu' }
    nodeTaints: [ 'sku=gpu:NoSchedule' ]
    tags: tags
  }
}
