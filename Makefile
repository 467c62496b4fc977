# planwarden: `make run` reviews the bundled example, `make lint` runs the
# static checks and `make test` every test (CI, .ci/run, runs both).
GO ?= go
BIN := bin/planwarden
EXAMPLE ?= examples/plans/aks-gpu-typo.json
# Each example plan's project in examples/planwarden.yml, which gives the
# project's environment; a plan of no example stack is reviewed in prod.
EXAMPLE_PROJECTS := aks-gpu-typo:aks-gpu sagemaker-rename:sagemaker-endpoint bucket-lifecycle:artifact-bucket \
	whatif-typo:bicep-gpu-vm whatif-vm-no-tags:bicep-gpu-vm
example_project = $(patsubst $(basename $(notdir $(EXAMPLE))):%,%,$(filter $(basename $(notdir $(EXAMPLE))):%,$(EXAMPLE_PROJECTS)))

.PHONY: build run test screenshot bench bench-all fuzz mutate lint image-binary serve lambda build-ReceiverFunction build-WorkerFunction deploy pricegen

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/planwarden

run: build
	$(BIN) review --config examples/planwarden.yml $(if $(example_project),--project $(example_project),--environment prod) $(EXAMPLE) || test $$? -eq 1

test:
	./scripts/test.sh

# The picture of the comment (docs/comment.png, shown by the README): the typo story's
# golden comment rendered with goldmark and photographed by headless
# Chromium (installed with apt-get when run as root).
screenshot:
	./scripts/screenshot.sh

# The figures of docs/performance.md: whole reviews of two generated plan mixes at
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

# Mutation testing of the pure core (gremlins, pinned in tools/gremlins):
# efficacy, mutator coverage and the surviving mutants per package, against
# the targets in README.md. Takes minutes per package; not in `make test`.
# MUTATE_PKGS="planparse" make mutate runs a subset; scripts/mutate-cases.sh
# then tries the mutants gremlins reports NOT COVERED (case conditions).
mutate:
	./scripts/mutate.sh

# Tools are pinned in their own modules under tools/ (each its own go.mod,
# so their dependencies never meet ours or each other's) and run with
# `go tool`; the first run builds them (goreleaser takes minutes).
TOOL = $(GO) -C tools/$(1) tool $(1)
# Linters as Go modules at pinned versions (go run fetches them once into
# the module cache).
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOIMPORTS ?= golang.org/x/tools/cmd/goimports@v0.52.0
# govulncheck checks the dependencies against the Go vulnerability database
# when GOVULNDB answers; offline (as on the build machine) it says so and
# skips instead of failing.
GOVULNCHECK ?= golang.org/x/vuln/cmd/govulncheck@v1.9.0
GOVULNDB ?= https://vuln.go.dev
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	@out="$$($(GO) run $(GOIMPORTS) -l -local github.com/planwarden/planwarden $$(git ls-files '*.go'))"; \
		test -z "$$out" || (echo "goimports -local github.com/planwarden/planwarden needed on:"; echo "$$out"; exit 1)
	$(GO) vet ./...
	@# The release (.goreleaser.yaml) builds the CLI for macOS and Windows
	@# too: what only builds on Linux would first fail there.
	GOOS=darwin GOARCH=arm64 $(GO) vet ./cmd/planwarden
	GOOS=windows GOARCH=amd64 $(GO) vet ./cmd/planwarden
	$(GO) run $(STATICCHECK) ./...
	$(call TOOL,actionlint) $(abspath $(wildcard examples/workflows/*.yml examples/*/workflows/*.yml .github/workflows/*.yml))
	@# The Dockerfile cannot be built here (no Docker engine): it is linted
	@# with BuildKit's own rules (make image-binary builds the same binary).
	$(GO) -C tools run ./dockerfilelint ../Dockerfile
	$(GO) -C tools test ./dockerfilelint
	$(GO) -C tools tool goreleaser check -f ../.goreleaser.yaml
	@if curl -fsS -o /dev/null --max-time 10 $(GOVULNDB)/index/db.json.gz 2>/dev/null; then \
		echo "$(GO) run $(GOVULNCHECK) -db $(GOVULNDB) ./..."; $(GO) run $(GOVULNCHECK) -db $(GOVULNDB) ./...; \
	else \
		echo "govulncheck skipped: $(GOVULNDB) is not reachable (offline?); when online run: $(GO) run $(GOVULNCHECK) ./..."; \
	fi

# The binary the Dockerfile builds, built the same way without Docker (this
# machine has no Docker engine): static, trimmed, stripped.
image-binary:
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -trimpath -ldflags='-s -w' -o dist/image/planwarden ./cmd/planwarden

serve: build
	$(BIN) serve

# Re-import the curated price table into infra/catalog.json and rebuild the
# bulk layers infra/catalog_bulk.tsv and infra/catalog_bulk_gcp.tsv
# (docs/pricing.md has the live-API refresh commands; GCP_YML may be a whole
# pricing.yml downloaded from Cyclenerd/google-cloud-pricing-cost-calculator,
# with GCP_COMMIT the commit it was taken at).
PRICES_CSV ?= ../shared/data/prices.csv
BULK_DIR ?= ../shared/data/catalog
GCP_YML ?= cmd/pricegen/data/gcp-pricing-excerpt.yml
GCP_COMMIT ?= 0166a59ebba7c36f2cc8c931d9f258dcebc44776
pricegen:
	$(GO) run ./cmd/pricegen import -csv $(PRICES_CSV)
	$(GO) run ./cmd/pricegen bulk -dir $(BULK_DIR)
	$(GO) run ./cmd/pricegen gcp -yml $(GCP_YML) -commit $(GCP_COMMIT)

# The two Lambda binaries (docs/deploy.md): the receiver links no review
# pipeline, the worker no webhook handler.
LAMBDA_BUILD = GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build -trimpath -ldflags '-s -w'
lambda:
	$(LAMBDA_BUILD) -tags lambda.norpc,receiver -o dist/lambda/receiver/bootstrap ./cmd/lambda
	$(LAMBDA_BUILD) -tags lambda.norpc,worker -o dist/lambda/worker/bootstrap ./cmd/lambda

# `sam build` runs these (Metadata: BuildMethod: makefile in template.yaml).
build-ReceiverFunction:
	$(LAMBDA_BUILD) -tags lambda.norpc,receiver -o $(ARTIFACTS_DIR)/bootstrap ./cmd/lambda
build-WorkerFunction:
	$(LAMBDA_BUILD) -tags lambda.norpc,worker -o $(ARTIFACTS_DIR)/bootstrap ./cmd/lambda

# The first deploy asks for the stack's parameters (sam deploy --guided)
# and saves them in samconfig.toml; later deploys reuse them.
deploy:
	sam build
	if [ -f samconfig.toml ]; then sam deploy; else sam deploy --guided; fi
