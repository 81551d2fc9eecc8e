package org.netpubsub.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** {@code nps testbed down}: runs {@code testbed/nps-testbed down} with the same arguments. */
@Command(
    name = "down",
    description = {
      "Stop the running test bed and wait until it is gone.",
      "Options are those of 'nps testbed down --help'."
    })
final class TestbedDownCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Unmatched List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return TestbedScript.run("down", args, json.enabled(), spec.commandLine().getErr());
  }
}
