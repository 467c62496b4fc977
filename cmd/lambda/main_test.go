package main

import (
	"strings"
	"testing"
)

func TestReadSettings(t *testing.T) {
	base := map[string]string{
		"PLANWARDEN_WEBHOOK_SECRET_ID": "arn:aws:secretsmanager:us-east-1:123456789012:secret:planwarden/webhook-secret-AbCdEf",
		"PLANWARDEN_PRIVATE_KEY_ID":    "planwarden/private-key",
		"PLANWARDEN_QUEUE_URL":         "https://sqs.us-east-1.amazonaws.com/123456789012/planwarden-jobs.fifo",
		"PLANWARDEN_TABLE":             "planwarden-state",
		"PLANWARDEN_APP_ID":            "123456",
	}
	tests := map[string]struct {
		env     map[string]string
		drop    []string
		wantErr []string
		want    settings
	}{
		"a receiver needs no key and no app id": {
			env: map[string]string{"PLANWARDEN_ROLE": "receiver"}, drop: []string{"PLANWARDEN_PRIVATE_KEY_ID", "PLANWARDEN_APP_ID"},
			want: settings{role: roleReceiver},
		},
		"a worker needs no queue url": {
			env: map[string]string{"PLANWARDEN_ROLE": "worker", "PLANWARDEN_MAX_RECEIVE_COUNT": "5"}, drop: []string{"PLANWARDEN_QUEUE_URL"},
			want: settings{role: roleWorker, appID: 123456, maxReceives: 5},
		},
		"no role is both": {want: settings{role: roleAll, appID: 123456}},
		"a worker without its key or app id says which": {
			env: map[string]string{"PLANWARDEN_ROLE": "worker", "PLANWARDEN_APP_ID": "my-app"}, drop: []string{"PLANWARDEN_PRIVATE_KEY_ID"},
			wantErr: []string{"PLANWARDEN_PRIVATE_KEY_ID is not set", `PLANWARDEN_APP_ID="my-app"`},
		},
		"an unknown role": {env: map[string]string{"PLANWARDEN_ROLE": "both"}, wantErr: []string{`PLANWARDEN_ROLE="both"`}},
		"no webhook secret, no table": {
			drop: []string{"PLANWARDEN_WEBHOOK_SECRET_ID", "PLANWARDEN_TABLE"}, wantErr: []string{"PLANWARDEN_WEBHOOK_SECRET_ID is not set", "PLANWARDEN_TABLE is not set"},
		},
		"a bad receive count": {env: map[string]string{"PLANWARDEN_MAX_RECEIVE_COUNT": "0"}, wantErr: []string{"PLANWARDEN_MAX_RECEIVE_COUNT"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range base {
				env[k] = v
			}
			for k, v := range tc.env {
				env[k] = v
			}
			for _, k := range tc.drop {
				delete(env, k)
			}
			got, err := readSettings(func(k string) string { return env[k] })
			if len(tc.wantErr) > 0 {
				for _, w := range tc.wantErr {
					if err == nil || !strings.Contains(err.Error(), w) {
						t.Errorf("error = %v, want it to say %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.role != tc.want.role || got.appID != tc.want.appID || got.maxReceives != tc.want.maxReceives {
				t.Errorf("settings = role %q app %d max receives %d, want %q %d %d", got.role, got.appID, got.maxReceives, tc.want.role, tc.want.appID, tc.want.maxReceives)
			}
		})
	}
}
