# mongoload: run 'make help' for the targets.
SHELL := /bin/bash
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/mongoload/mongoload/internal/cli.Version=$(VERSION)
BIN := bin/mongoload
# Tests whose assertions are about wall-clock timing (each calls
# testserver.Timing): they skip under -race and run in make test's second
# pass, from these packages, and only they do. internal/testserver's
# TestTimingList checks what make runs against the sources, both ways.
TIMING_PKGS := ./cmd/mongoload ./internal/cli ./internal/engine
TIMING_TESTS := TestFaultInterruptFrozenServer TestFaultSecondInterrupt \
	TestFaultLoadResumeAfterKill TestFaultScenarios TestStallShowsInResponseTime TestStallDropsBeyondMaxInFlight \
	TestClockNamesWhatIsMeasured TestOpenLoopKeepsItsRate TestOpenLoopDropsWhenFull TestOpenLoopMeasuresFromSchedule \
	TestSchedulerMeasuresItself TestSessionsThink TestFindMax TestFaultSeedingServerKilled \
	TestFaultPostPhaseBoundFrozenServer TestWatcherLagShowsPause TestCaptureCtrlCOnAFrozenServer \
	TestABIdenticalServersFlagNothing TestABIndexDropped TestABSlowerCandidate TestFindMaxSaysNoise \
	TestRunReportsMeasuredMemory TestABTrafficFlagsTheDroppedIndexOnly
empty :=
space := $(empty) $(empty)
TIMING_RUN := ^($(subst $(space),|,$(strip $(TIMING_TESTS))))$$
DEMO_ARGS ?= --duration 20s --warmup 3s --concurrency 8 --out demo-results.json

.PHONY: help build demo test test-k8s test-short vet fmt bench bench-cores bench-usl bench-capacity4-floor ycsb-fidelity testserver clean

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-22s %s\n", $$1, $$2}'

build: ## build bin/mongoload
	go build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/mongoload

demo: build ## start a local test server, seed and run the default workload, print the report
	scripts/with-testserver demo bash -c '$(BIN) run default --uri "$$MONGOLOAD_TEST_URI" $(DEMO_ARGS)'

test: vet ## run every test (integration tests against a local test server) with the race detector
	@[ "$$MONGOLOAD_SKIP_BROWSER" = 1 ] || command -v chromium >/dev/null || scripts/install-browser
	scripts/with-testserver test bash -c 'go test -race -count=1 -timeout 40m ./... && \
	  echo "timing tests (pacing, a paused server), without the race detector, one package at a time:" && \
	  go test -count=1 -timeout 30m -p 1 -run "$(TIMING_RUN)" $(TIMING_PKGS)' 

test-k8s: ## deploy/kubernetes's manifests through kubectl on Kubernetes's own control plane, pods as processes (root; the first run builds Kubernetes, 8 to 60 minutes; then ~6)
	cd deploy/kubernetes/e2e && go vet -trimpath ./... && MONGOLOAD_TEST_K8S=1 go test -trimpath -count=1 -timeout 60m -v ./...

test-short: ## unit tests only (skips tests that need the server)
	MONGOLOAD_SKIP_INTEGRATION=1 go test -race -count=1 ./...

vet: ## gofmt check and go vet
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	go vet ./...

fmt: ## format the code
	gofmt -w $$(git ls-files '*.go')

bench: build ## mongoload vs the raw-BSON driver floors and the wire floor in turn, RSS, no-op ceiling; rewrites the README's table (~8 minutes)
	bench/run.sh
	bench/cores.sh
	{ cat bench/results/table.md; echo; cat bench/results/cores.md; } >bench/results/readme.md
	bench/readme.sh bench/results/readme.md README.md

bench-usl: ## the Universal Scalability Law's prediction for 32 workers against a run at 32, fitted to sweeps at 1-8 and 1-16 workers, test server on one core (~5 minutes)
	bench/usl.sh

bench-capacity4-floor: ## what fixed rates no search chose meet in capacity4's sequence beside findmax's answers, and the host's speed beside each window (~25 minutes, alone on the machine)
	bench/capacity4-floor.sh

bench-cores: ## each client's CPU per operation against bench/stub (no server work) at 1, 2 and 4 cores (~4 minutes)
	bench/cores.sh

ycsb-fidelity: ## check YCSB mode against YCSB's own generators (needs Java and Maven) and update docs/ycsb.md's table
	bench/ycsb-fidelity/run.sh --docs

testserver: ## build the pinned test server into the cache (done on demand otherwise)
	scripts/testserver install

clean: ## remove build output
	rm -rf bin demo-results.json
