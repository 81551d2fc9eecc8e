"""Pure test of ovs_response.py's build specs: a variable's value may hold colons (JVM options)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "experiments"))

import ovs_response  # noqa: E402


def test_a_value_with_colons_stays_one_variable_and_the_next_name_starts_a_new_one():
    b = ovs_response.parse_build("new=HEAD:/tmp/n.jar:NPS_TESTBED_AUTH=0:"
                                 "NPS_JAVA_OPTS=-XX:+UseZGC -Xlog:gc:file=/tmp/g-%p.log:"
                                 "NPS_TESTBED_OPENFLOW_TLS=0")
    assert b["name"] == "new" and b["commit"] == "HEAD" and b["jar"] == "/tmp/n.jar"
    assert b["env"] == {"NPS_TESTBED_AUTH": "0",
                        "NPS_JAVA_OPTS": "-XX:+UseZGC -Xlog:gc:file=/tmp/g-%p.log",
                        "NPS_TESTBED_OPENFLOW_TLS": "0"}


def test_a_build_without_variables_has_an_empty_environment():
    assert ovs_response.parse_build("old=26cb5e4:old.jar")["env"] == {}
