package trust

import "gopkg.in/yaml.v3"

// flatten resolves a workflow's YAML anchors for the reader: an alias
// becomes the node it names, and a mapping's merge keys (<<: *defaults)
// become its own keys (those it sets itself win). Nodes are shared, not
// copied, so a document of nested aliases stays its size; the reader
// looks nodes up by key and never walks a document whole.
func flatten(n *yaml.Node) *yaml.Node {
	return flattenSeen(n, map[*yaml.Node]bool{})
}

func flattenSeen(n *yaml.Node, seen map[*yaml.Node]bool) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && !seen[n] {
		seen[n] = true
		n = n.Alias
	}
	if n == nil || seen[n] {
		return n
	}
	seen[n] = true
	for i, c := range n.Content {
		n.Content[i] = flattenSeen(c, seen)
	}
	if n.Kind != yaml.MappingNode {
		return n
	}
	var own, merged []*yaml.Node
	has := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Tag != "!!merge" && k.Value != "<<" {
			own = append(own, k, n.Content[i+1])
			has[k.Value] = true
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Tag == "!!merge" || k.Value == "<<" {
			from := []*yaml.Node{n.Content[i+1]}
			if n.Content[i+1].Kind == yaml.SequenceNode {
				from = n.Content[i+1].Content
			}
			for _, m := range from {
				if m.Kind != yaml.MappingNode {
					continue
				}
				for j := 0; j+1 < len(m.Content); j += 2 {
					if !has[m.Content[j].Value] {
						merged = append(merged, m.Content[j], m.Content[j+1])
						has[m.Content[j].Value] = true
					}
				}
			}
		}
	}
	if len(merged) > 0 || len(own) != len(n.Content) {
		n.Content = append(own, merged...)
	}
	return n
}
