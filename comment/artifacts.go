package comment

import "fmt"

// ArtifactFault is what is wrong with a plan artifact the App refuses.
type ArtifactFault int

// The faults of a refused plan artifact.
const (
	// ArtifactExpired: GitHub no longer keeps the artifact.
	ArtifactExpired ArtifactFault = iota
	// ArtifactOverLimit: its listed size (N MiB) is over the zip limit.
	ArtifactOverLimit
	// ArtifactTooLarge: its download grew past the zip limit.
	ArtifactTooLarge
	// ArtifactNotZip: it is not a readable zip (Err).
	ArtifactNotZip
	// ArtifactTooManyEntries: its zip holds N entries, over the limit.
	ArtifactTooManyEntries
	// EntryEscapes: Entry is an absolute path or climbs out with "..".
	EntryEscapes
	// EntryOverTotal: Entry would take the run's uncompressed total past
	// the limit (MiB).
	EntryOverTotal
	// MetadataTooLarge: the metadata file Entry is over the limit (KiB).
	MetadataTooLarge
	// EntryUnopened: Entry cannot be opened (Err).
	EntryUnopened
	// EntryDamaged: Entry is damaged, or its data is not the size its
	// header declares.
	EntryDamaged
	// EntryUnread: Entry cannot be read (Err).
	EntryUnread
	// BadMetadata: the metadata file Entry does not decode (Err).
	BadMetadata
	// NoPlanFile: the artifact holds no *.json plan file.
	NoPlanFile
)

// ArtifactRefusal is a plan artifact the App refuses, and why: the check
// fails saying so, and the review ends.
type ArtifactRefusal struct {
	Artifact string
	Fault    ArtifactFault
	// Entry is the zip entry at fault, when one is.
	Entry string
	// N is the count or size the fault is about; Limit the limit it
	// passes (MiB, KiB or entries, as the fault says).
	N, Limit int64
	Err      error
}

// Check is the failure of the check run.
func (a ArtifactRefusal) Check() Check {
	title := "Plan artifact refused"
	if a.Fault == ArtifactExpired {
		title = "Plan artifact expired"
	}
	return Check{Conclusion: "failure", Title: title, Summary: a.sentence()}
}

func (a ArtifactRefusal) sentence() string {
	name, entry := a.Artifact, a.Entry
	switch a.Fault {
	case ArtifactExpired:
		return fmt.Sprintf("The artifact %s has expired; re-run the plan workflow.", name)
	case ArtifactOverLimit:
		return fmt.Sprintf("The artifact %s is %d MiB, more than the limit of %d MiB.", name, a.N, a.Limit)
	case ArtifactTooLarge:
		return fmt.Sprintf("The artifact %s is larger than the limit of %d MiB.", name, a.Limit)
	case ArtifactNotZip:
		return fmt.Sprintf("artifact %s is not a readable zip: %v", name, a.Err)
	case ArtifactTooManyEntries:
		return fmt.Sprintf("artifact %s refused: %d entries, more than the limit of %d", name, a.N, a.Limit)
	case EntryEscapes:
		return fmt.Sprintf("artifact %s refused: entry %q escapes the artifact (absolute path or ..)", name, entry)
	case EntryOverTotal:
		return fmt.Sprintf("artifact %s refused: %s would take the uncompressed total past the limit of %d MiB (zip bomb?)", name, entry, a.Limit)
	case MetadataTooLarge:
		return fmt.Sprintf("artifact %s: %s: metadata file larger than %d KiB", name, entry, a.Limit)
	case EntryUnopened:
		return fmt.Sprintf("artifact %s: cannot open %s: %v", name, entry, a.Err)
	case EntryDamaged:
		return fmt.Sprintf("artifact %s refused: %s is damaged or lies about its size", name, entry)
	case EntryUnread:
		return fmt.Sprintf("artifact %s: cannot read %s: %v", name, entry, a.Err)
	case BadMetadata:
		return fmt.Sprintf("artifact %s: %s: bad metadata: %v", name, entry, a.Err)
	}
	return fmt.Sprintf("artifact %s holds no *.json plan file", name)
}
