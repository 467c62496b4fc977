# planwarden: `make run` reviews the bundled example, `make test` runs every check.
GO ?= go
BIN := bin/planwarden
EXAMPLE ?= examples/plans/aks-gpu-typo.json

.PHONY: build run test bench bench-all fuzz lint image-binary serve lambda deploy pricegen

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/planwarden

run: build
	./$(BIN) review --project aks-gpu --environment prod $(EXAMPLE) || test $$? -eq 1

test:
	./scripts/test.sh

# The figures of the README: whole reviews of two generated plan mixes at
# 20,000 and 100,000 changes, as child processes, side by side with
# terraform-json's bare decode (ratios of paired runs, peak RSS), then one
# workflow_run delivery to the completed check on the fake GitHub.
BENCHTIME ?= 5x
bench:
	$(GO) test -run '^$$' -bench 'ReviewFigures' -benchtime $(BENCHTIME) -timeout 60m ./cmd/planwarden
	$(GO) test -run '^$$' -bench 'WorkflowRunToCheck' -benchtime $(BENCHTIME) -benchmem ./app/

# Every benchmark of every package.
bench-all:
	$(GO) test -run '^$$' -bench . -benchmem ./...

FUZZTIME ?= 2m
fuzz:
	$(GO) test ./planparse -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)

# Tools (goreleaser, actionlint, the Dockerfile lint) are pinned in
# tools/go.mod and run with `go tool`; the first run builds them (minutes).
TOOL := $(GO) -C tools tool
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	$(TOOL) actionlint -shellcheck= $(addprefix ../,$(wildcard examples/workflows/*.yml examples/*/workflows/*.yml .github/workflows/*.yml))
	$(GO) -C tools run ./dockerfilelint ../Dockerfile
	$(TOOL) goreleaser check -f ../.goreleaser.yaml

# The binary the Dockerfile builds, built the same way without Docker (this
# machine has no Docker engine): static, trimmed, stripped.
image-binary:
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -trimpath -ldflags='-s -w' -o dist/image/planwarden ./cmd/planwarden

serve: build
	./$(BIN) serve

# Re-import the curated price table into infra/catalog.json (docs/pricing.md
# has the live-API refresh commands).
PRICES_CSV ?= ../shared/data/prices.csv
pricegen:
	$(GO) run ./cmd/pricegen import -csv $(PRICES_CSV)

lambda:
	GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build -tags lambda.norpc -trimpath -ldflags '-s -w' -o dist/lambda/bootstrap ./cmd/lambda

# sam build's Go builder runs plain `go build -trimpath`; these flags keep
# the binary the size `make lambda` builds (see docs/deploy.md).
deploy:
	GOFLAGS='-tags=lambda.norpc -ldflags=-s' CGO_ENABLED=0 sam build && sam deploy --guided
