"""The SNAPS test-bed scenarios (paper Table I) and the modes they run in."""

TOPOLOGY = "zoo:Abilene"
SWITCH_LINKS = 14
INTERVAL_MS = 4.5        # the paper's publishing interval
LINK_RATE_MBIT = 100     # the paper's link bandwidth
MODES = ["classic", "federated", "netpubsub", "netpubsub-amqp", "groups-udp"]

SCEN_2_SUBS = [2, 3, 5, 7, 10, 8, 4]
ALL_SUBS = list(range(2, 11))
# Table I: name → (publisher host, subscriber hosts, message bytes)
SCENARIOS = {
    "scen-1": (1, [3], 1500),
    "scen-2": (1, SCEN_2_SUBS, 1500),
    "scen-3": (2, [1, 3, 5, 7, 10, 8, 4], 1500),
    "scen-4": (1, ALL_SUBS, 1500),
    "scen-5": (1, ALL_SUBS, 6000),
    "scen-6": (1, ALL_SUBS, 12000),
    "scen-7": (1, SCEN_2_SUBS, 12000),
}
