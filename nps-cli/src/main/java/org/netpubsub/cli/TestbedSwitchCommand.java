package org.netpubsub.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** {@code nps testbed switch}: runs {@code testbed/nps-testbed switch} with the same arguments. */
@Command(
    name = "switch",
    description = {
      "Fail a switch or recover it: switch S down|up (its links and its controller connection).",
      "Options are those of 'nps testbed switch --help'."
    })
final class TestbedSwitchCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Unmatched List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return TestbedScript.run("switch", args, json.enabled(), spec.commandLine().getErr());
  }
}
