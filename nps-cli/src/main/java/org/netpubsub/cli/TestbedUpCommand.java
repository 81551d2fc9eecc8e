package org.netpubsub.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** {@code nps testbed up}: runs {@code testbed/nps-testbed up} with the same arguments. */
@Command(
    name = "up",
    description = {
      "Bring a topology up (Mininet + Open vSwitch) and run until 'down', Ctrl-C or SIGTERM.",
      "Options are those of 'nps testbed up --help'."
    })
final class TestbedUpCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Unmatched List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return TestbedScript.run("up", args, json.enabled(), spec.commandLine().getErr());
  }
}
