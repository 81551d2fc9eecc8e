package org.netpubsub.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** {@code nps testbed link}: runs {@code testbed/nps-testbed link} with the same arguments. */
@Command(
    name = "link",
    description = {
      "Take a link down or bring it up: link S1 S2 down|up.",
      "Options are those of 'nps testbed link --help'."
    })
final class TestbedLinkCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Unmatched List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return TestbedScript.run("link", args, json.enabled(), spec.commandLine().getErr());
  }
}
