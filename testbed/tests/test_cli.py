"""Argument handling of nps-testbed that needs no root and no running test bed."""

import pytest

from nps_testbed import cli, commands


@pytest.mark.parametrize("target", ["tcp:127.0.0.1:6653", "tcp:[::1]:6653", "ssl:10.0.0.1:6653", "tcp:localhost:1",
                                    "tcp:127.0.0.1:6653,tcp:127.0.0.1:6654"])
def test_controller_targets_accepted(target):
    assert cli._controller(target) == target


@pytest.mark.parametrize("target", ["127.0.0.1:6653", "tcp:127.0.0.1", "udp:1.2.3.4:5", "tcp:1.2.3.4:port",
                                    "tcp:127.0.0.1:6653,", "tcp:127.0.0.1:6653,6654"])
def test_bad_controller_targets_rejected(target):
    with pytest.raises(commands.UsageError):
        cli._controller(target)


def test_api_relay_targets():
    assert cli._api("127.0.0.1:8080") == ("127.0.0.1", 8080)
    assert cli._api("[::1]:9000") == ("::1", 9000)
    assert cli._api("none") is None
    for bad in ("8080", "host:0", "host:70000", "host:x"):
        with pytest.raises(commands.UsageError):
            cli._api(bad)


def test_bad_input_exits_2_before_needing_root(capsys):
    assert cli.main(["up", "--topo", "fattree:3"]) == 2
    assert "even K" in capsys.readouterr().err
    assert cli.main(["up", "--topo", "linear:2", "--controller", "6653"]) == 2
    with pytest.raises(SystemExit) as e:
        cli.main(["link", "s1", "s2", "sideways"])
    assert e.value.code == 2


def test_exec_without_command_is_a_usage_error():
    with pytest.raises(commands.UsageError):
        commands.exec_in_host("h1", ["--"])
