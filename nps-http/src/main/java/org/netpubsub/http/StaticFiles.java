package org.netpubsub.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Files under {@code /} from one classpath directory (the controller's dashboard), {@code /} being
 * its {@code index.html}. Names are plain (letters, digits, {@code . _ -}, slashes between): no
 * {@code ..}, so a request cannot leave the directory. Each file is read once.
 */
final class StaticFiles {
  private static final Pattern NAME =
      Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*");
  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "json", "application/json",
          "svg", "image/svg+xml",
          "png", "image/png",
          "ico", "image/x-icon");

  record File(byte[] bytes, String type) {}

  private final String dir;
  private final Map<String, Optional<File>> files = new ConcurrentHashMap<>();

  StaticFiles(String classpathDir) {
    String d = classpathDir.startsWith("/") ? classpathDir.substring(1) : classpathDir;
    this.dir = d.endsWith("/") ? d : d + "/";
  }

  /** The file a {@code GET path} asks for, or null. */
  File get(String path) {
    String name = path.equals("/") ? "index.html" : path.substring(1);
    if (!NAME.matcher(name).matches() || name.contains("..")) {
      return null;
    }
    return files.computeIfAbsent(name, this::read).orElse(null);
  }

  private Optional<File> read(String name) {
    try (InputStream in = StaticFiles.class.getClassLoader().getResourceAsStream(dir + name)) {
      if (in == null) {
        return Optional.empty();
      }
      String ext = name.substring(name.lastIndexOf('.') + 1);
      return Optional.of(
          new File(in.readAllBytes(), TYPES.getOrDefault(ext, "application/octet-stream")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
