package org.netpubsub.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** {@code nps testbed clean}: runs {@code testbed/nps-testbed clean} with the same arguments. */
@Command(
    name = "clean",
    description = {
      "Remove everything the test bed ever created, also after a crash.",
      "Options are those of 'nps testbed clean --help'."
    })
final class TestbedCleanCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Unmatched List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return TestbedScript.run("clean", args, json.enabled(), spec.commandLine().getErr());
  }
}
