# planwarden: `make run` reviews the bundled example, `make test` runs every check.
GO ?= go
BIN := bin/planwarden
EXAMPLE ?= examples/plans/aks-gpu-typo.json

.PHONY: build run test bench fuzz lint serve lambda deploy pricegen

build:
	$(GO) build -o $(BIN) ./cmd/planwarden

run: build
	./$(BIN) review --project aks-gpu --environment prod $(EXAMPLE) || test $$? -eq 1

test:
	./scripts/test.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

FUZZTIME ?= 2m
fuzz:
	$(GO) test ./planparse -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...

serve: build
	./$(BIN) serve

pricegen:
	$(GO) run ./cmd/pricegen -h

lambda:
	GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build -tags lambda.norpc -trimpath -ldflags '-s -w' -o dist/lambda/bootstrap ./cmd/lambda

deploy:
	sam build && sam deploy --guided
