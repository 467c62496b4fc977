package trust

import (
	"fmt"
	"strings"

	"github.com/planwarden/planwarden/rules"
)

// Actor is who GitHub says did something that may approve: added an
// override label, wrote an /override command.
type Actor struct {
	Login string
	// Type is GitHub's type of the account: User, Bot or Organization;
	// "" when GitHub did not say.
	Type string
}

// IsBot reports whether the actor is a bot or an App acting as one:
// GitHub says its type is Bot, or its login ends with [bot] (every App's
// does).
func (a Actor) IsBot() bool {
	return strings.EqualFold(a.Type, "Bot") || strings.HasSuffix(strings.ToLower(a.Login), "[bot]")
}

// MayApprove reports whether a label the actor added, or a command the
// actor wrote, may count as an approval at all under cfg, and when not,
// why, in a sentence. People may (whether they may override a given
// finding is the override policy's: Check). A bot or App may only when
// cfg lists its login under approving_bots, since it acts for whoever
// made it act; rules.ActionsBot never may, listed or not: it acts for
// whoever triggered the workflow, the pull request's author included. An
// actor GitHub does not name may not.
func MayApprove(cfg *rules.Config, a Actor) (bool, string) {
	switch {
	case strings.TrimSpace(a.Login) == "":
		return false, "GitHub does not say who did it"
	case strings.EqualFold(a.Login, rules.ActionsBot):
		return false, fmt.Sprintf("%s acts for whoever triggered the workflow, so it never approves", rules.ActionsBot)
	case a.IsBot() && !cfg.BotMayApprove(a.Login):
		return false, fmt.Sprintf("%s is a bot, and the base branch's config does not list it under approving_bots", a.Login)
	}
	return true, ""
}
