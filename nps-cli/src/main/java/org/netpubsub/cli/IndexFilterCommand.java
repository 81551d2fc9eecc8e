package org.netpubsub.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Placeholder: filled in with the feature it fronts. */
@Command(name = "filter", mixinStandardHelpOptions = true, description = "Not built yet.")
final class IndexFilterCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Override
  public Integer call() {
    throw new UnsupportedOperationException("not built yet");
  }
}
