"""Figure 7's DDS series (experiments/overlay_dds_multipath.py, run by hand): Table 1's cases and
which broker sends over which link, as the MQTT bench sets them (MultipathExperiment). Pure, no
process started; the series itself is measured by `overlay.py --only multipath-dds`."""

from __future__ import annotations

import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                             "experiments"))  # last: the tests' own modules keep their names
from overlay_dds_multipath import PROFILES, case_links, case_wan  # noqa: E402

RB = ["127.0.0.1:5001"]


def value(args: list[str], option: str) -> str:
    return args[args.index(option) + 1]


def test_table_1_cases_in_the_papers_order():
    assert [case_links(c) for c in range(1, 9)] == [
        "AAA", "AAB", "ABA", "ABB", "BAA", "BAB", "BBA", "BBB"]


def test_the_writing_edge_sends_over_l1_to_the_routing_broker_and_l3_to_the_reading_edge():
    for links in ("BAA", "ABA", "AAB"):
        wan = case_wan(links, 7)
        writer = wan("edge", 0, RB)
        assert value(writer, "--emulate-link") == f"{RB[0]}={PROFILES[links[0]]}"  # L1
        assert value(wan("rb", 0, RB), "--emulate-wan") == PROFILES[links[1]]  # L2
        assert value(writer, "--emulate-wan") == PROFILES[links[2]]  # L3, the direct path
        reader = wan("edge", 1, RB)  # its NACKs unemulated, as the MQTT bench's rome
        assert "--emulate-wan" not in reader and "--emulate-link" not in reader
