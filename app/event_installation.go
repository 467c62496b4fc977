package app

import (
	"context"

	"github.com/google/go-github/v66/github"
)

// installation and installation_repositories: logged, nothing to do.

func decodeInstallation(ctx context.Context, ev any) (Job, bool) {
	if e, ok := ev.(*github.InstallationEvent); ok {
		logger(ctx).Info("installation", "action", e.GetAction(), "installation", e.GetInstallation().GetID(),
			"account", e.GetInstallation().GetAccount().GetLogin(), "repositories", len(e.Repositories))
	}
	return Job{}, false
}

func decodeInstallationRepositories(ctx context.Context, ev any) (Job, bool) {
	if e, ok := ev.(*github.InstallationRepositoriesEvent); ok {
		logger(ctx).Info("installation repositories", "action", e.GetAction(), "installation", e.GetInstallation().GetID(),
			"added", len(e.RepositoriesAdded), "removed", len(e.RepositoriesRemoved))
	}
	return Job{}, false
}
