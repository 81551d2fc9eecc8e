package org.netpubsub.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.netpubsub.content.InvalidInputException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code --config FILE}: a YAML map of a command's long options without their dashes ({@code
 * listen: 127.0.0.1:7200}, {@code deadline: [a/#=50ms]}). Its options go in front of the command
 * line's, which therefore win. An unknown key or a value of the wrong type is refused with the key
 * and its line.
 */
final class ConfigFile {
  private static final int MAX_BYTES = 1 << 20;
  private static final Set<Class<?>> INTEGERS =
      Set.of(int.class, Integer.class, long.class, Long.class, short.class, Short.class);
  private static final Set<Class<?>> NUMBERS =
      Set.of(double.class, Double.class, float.class, Float.class);

  private ConfigFile() {}

  /** {@code args} with the options of the {@code --config} file inserted after the command. */
  static String[] expand(CommandLine root, String[] args) {
    CommandLine cl = root;
    int at = 0;
    while (at < args.length && cl.getSubcommands().containsKey(args[at])) {
      cl = cl.getSubcommands().get(args[at++]);
    }
    String file = configArgument(args, at);
    if (file == null || cl.getCommandSpec().findOption("--config") == null) {
      return args;
    }
    List<String> options = options(cl.getCommandSpec(), Path.of(file));
    List<String> out = new ArrayList<>(Arrays.asList(args).subList(0, at));
    out.addAll(options);
    out.addAll(Arrays.asList(args).subList(at, args.length));
    return out.toArray(String[]::new);
  }

  private static String configArgument(String[] args, int from) {
    for (int i = from; i < args.length; i++) {
      if (args[i].equals("--config") && i + 1 < args.length) {
        return args[i + 1];
      }
      if (args[i].startsWith("--config=")) {
        return args[i].substring("--config=".length());
      }
    }
    return null;
  }

  /** The file's keys as command-line options of {@code spec}. */
  static List<String> options(CommandSpec spec, Path file) {
    Node root;
    try {
      if (Files.size(file) > MAX_BYTES) {
        throw new InvalidInputException(file + ": a config file must be under 1 MiB");
      }
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        root = new Yaml(new LoaderOptions()).compose(r);
      }
    } catch (IOException e) {
      throw CommandFailure.io(e);
    } catch (RuntimeException e) {
      if (e instanceof InvalidInputException) {
        throw e;
      }
      throw new InvalidInputException(file + ": not YAML: " + e.getMessage());
    }
    List<String> out = new ArrayList<>();
    if (root == null) {
      return out;
    }
    if (!(root instanceof MappingNode map)) {
      throw new InvalidInputException(file + ": must be a map of option names to values");
    }
    for (NodeTuple t : map.getValue()) {
      String where = file + " line " + (t.getKeyNode().getStartMark().getLine() + 1);
      if (!(t.getKeyNode() instanceof ScalarNode keyNode)) {
        throw new InvalidInputException(where + ": a key must be an option name");
      }
      String key = keyNode.getValue();
      OptionSpec o = key.equals("config") ? null : spec.findOption("--" + key);
      if (o == null || o.hidden() || !o.longestName().equals("--" + key)) {
        throw new InvalidInputException(
            where + ": unknown key '" + key + "' for nps " + spec.qualifiedName().substring(4));
      }
      add(out, o, key, t.getValueNode(), where);
    }
    return out;
  }

  private static void add(List<String> out, OptionSpec o, String key, Node value, String where) {
    if (value instanceof SequenceNode seq && o.isMultiValue()) {
      for (Node item : seq.getValue()) {
        out.add("--" + key);
        out.add(scalar(item, o.auxiliaryTypes()[0], key, where));
      }
      return;
    }
    Class<?> type = o.isMultiValue() ? o.auxiliaryTypes()[0] : o.type();
    if (type == boolean.class || type == Boolean.class) {
      if (!(value instanceof ScalarNode s) || !s.getTag().equals(Tag.BOOL)) {
        throw wrongType(key, where, "true or false");
      }
      if (Boolean.parseBoolean(s.getValue())) {
        out.add("--" + key);
      }
      return;
    }
    out.add("--" + key);
    out.add(scalar(value, type, key, where));
  }

  private static String scalar(Node value, Class<?> type, String key, String where) {
    if (!(value instanceof ScalarNode s) || s.getTag().equals(Tag.NULL)) {
      throw wrongType(key, where, "a single value");
    }
    if (INTEGERS.contains(type) && !s.getTag().equals(Tag.INT)) {
      throw wrongType(key, where, "an integer");
    }
    if (NUMBERS.contains(type) && !s.getTag().equals(Tag.INT) && !s.getTag().equals(Tag.FLOAT)) {
      throw wrongType(key, where, "a number");
    }
    return s.getValue();
  }

  private static InvalidInputException wrongType(String key, String where, String wanted) {
    return new InvalidInputException(where + ": '" + key + "' must be " + wanted);
  }
}
