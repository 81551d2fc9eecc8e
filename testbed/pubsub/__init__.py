"""Runs netpubsub's in-network pub/sub on the test bed: the controller, the Mininet network,
subscribers and publishers as real processes in host namespaces. Shared by `make demo`, the
live tests and the experiments."""
