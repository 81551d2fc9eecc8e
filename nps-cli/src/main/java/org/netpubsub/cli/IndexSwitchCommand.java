package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.client.ControllerClient;
import org.netpubsub.client.ControllerException;
import org.netpubsub.client.LayoutSwitch;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps index switch}: switches a running controller to another index layout while its
 * subscriptions stand ({@code PUT /v1/pubsub/layout}, docs/pubsub.md "Switching the layout").
 */
@Command(
    name = "switch",
    mixinStandardHelpOptions = true,
    description = {
      "Switch the controller's index online to the index and layout of --schema (the same"
          + " attributes), make-before-break: the new flows are installed beside the old, clients"
          + " are told the new index version, and after --grace the old flows are removed.",
      "Prints {\"kind\":\"layout_switched\",\"version\",\"requests\",\"flows_installed\","
          + "\"flows_removed\",\"install_ms\",\"total_ms\"}."
    })
final class IndexSwitchCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Mixin ClientOptions client;

  @Option(
      names = "--schema",
      required = true,
      paramLabel = "FILE",
      description = "Schema YAML with the new index and layout.")
  Path schema;

  @Option(
      names = "--length",
      paramLabel = "L",
      description = "dz length in bits, 1..112 (default: the schema's default).")
  Integer length;

  @Option(
      names = "--grace",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "How long the old flows stay after the new index is announced, for publishers to"
              + " notice (default: the controller's, 3s).")
  Duration grace;

  @Override
  public Integer call() throws IOException {
    Schema parsed = SchemaLoader.load(schema); // bad input is found here, not at the controller
    if (length != null) {
      new SpatialIndex(parsed, length); // refuses a length the layout cannot have
    }
    String yaml = Files.readString(schema, StandardCharsets.UTF_8);
    PrintWriter out = spec.commandLine().getOut();
    try (ControllerClient controller = client.connect()) {
      LayoutSwitch s;
      try {
        s = controller.switchLayout(yaml, length, grace == null ? null : grace.toMillis());
      } catch (ControllerException e) {
        return ClientOptions.fail(e, spec.commandLine().getErr(), json.enabled());
      }
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("kind", "layout_switched");
      line.put("version", s.version());
      line.put("requests", s.requests());
      line.put("flows_installed", s.flowsInstalled());
      line.put("flows_removed", s.flowsRemoved());
      line.put("install_ms", s.installMs());
      line.put("total_ms", s.totalMs());
      JsonOutput.printLine(out, line);
      return 0;
    }
  }
}
