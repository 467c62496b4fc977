package planparse

import (
	"strings"
	"testing"
)

// vendorWords are keywords of the detector's rules, one rule or more each.
const vendorWords = "access adafruit adobe airtable algolia alibaba artifactory asana atlassian beamer bintray bitbucket " +
	"bittrex cloudflare codecov cohere coinbase confluence confluent contentful credential creds datadog discord " +
	"droneci dropbox facebook fastly finicity finnhub flickr freshbooks gitter gocardless heroku hubspot intercom " +
	"jfrog kraken kucoin launchdarkly linkedin looker mailchimp mailgun mapbox mattermost meraki messagebird netlify " +
	"newrelic nytimes passwd password plaid rapidapi secret sendbird sentry sonar sourcegraph squarespace token " +
	"travis twitch twitter yandex zendesk"

// TestAValueTooCostlyToSearchIsHidden: a plain user_data that names every
// vendor the rules know on every line, and holds no secret, runs every
// rule's regex on each of its windows; past the detector's budget it is
// hidden, as a secret is, and so is its copy under another plain name. Its
// twin, the same words once, is searched in full and shown.
func TestAValueTooCostlyToSearchIsHidden(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		copies int
		hidden bool
	}{{copies: 1}, {copies: 256 << 10 / len(vendorWords), hidden: true}} {
		text := strings.Repeat("# "+vendorWords+"\n", c.copies)
		p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[
{"address":"terraform_data.a","mode":"managed","type":"terraform_data","name":"a","change":{"actions":["create"],"before":null,
 "after":{"user_data":"`+strings.ReplaceAll(text, "\n", `\n`)+`"},"after_unknown":{},"after_sensitive":{}}},
{"address":"terraform_data.b","mode":"managed","type":"terraform_data","name":"b","change":{"actions":["create"],"before":null,
 "after":{"description":"`+strings.ReplaceAll(text, "\n", `\n`)+`"},"after_unknown":{},"after_sensitive":{}}}]}`)
		for i, path := range []string{"user_data", "description"} {
			got := p.Changes[i].After().Get(path).Display()
			if hidden := got == SensitiveText; hidden != c.hidden {
				t.Errorf("%d copies: %s hidden = %v, want %v", c.copies, path, hidden, c.hidden)
			}
		}
	}
}
