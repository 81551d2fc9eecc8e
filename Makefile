# The two commands of the README, plus the benchmarks and the formatter.
SHELL := /bin/bash
MVN := source scripts/java-env && mvn -B -q

.PHONY: demo local-demo test bench fmt build clean bootstrap dist

bootstrap:
	@scripts/bootstrap

build: bootstrap
	@$(MVN) -DskipTests install

# The main job. Until the in-network pub/sub issue lands: a walk-through of the content model.
demo: bootstrap
	@scripts/demo

# The demo without root or Open vSwitch: `nps local`'s simulated switches (docs/local.md).
local-demo: bootstrap
	@PYTHONPATH=testbed python3 -m pubsub.local_demo

# Every test: JVM (formatter check included), the CLI end to end, the release tarball with
# `nps local`, the Python client (with its differential tests against the Java library), the
# Mininet test bed. No test runs the JMH benchmarks.jar (`make bench` builds it): not shaded here.
test: bootstrap
	@source scripts/java-env && mvn -B verify -Dnps.skipBenchJar=true
	@scripts/test-cli
	@scripts/test-dist
	@scripts/test-python
	@scripts/test-testbed

# JMH benchmarks; results land in docs/results/.
bench: build
	@scripts/bench

# The release: dist/netpubsub-VERSION.tar.gz with its own Java runtime (docs/local.md, "Install").
dist: bootstrap
	@scripts/dist

fmt:
	@$(MVN) spotless:apply

clean:
	@$(MVN) clean
