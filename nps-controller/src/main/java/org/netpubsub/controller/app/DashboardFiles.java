package org.netpubsub.controller.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;

/**
 * Serves the live dashboard (the classpath directory {@code dashboard/}: {@code /} is its {@code
 * index.html}, {@code /app.js} and the like its other files) and hands every other request to the
 * API. Only plain file names are looked up, so no path can leave the directory.
 */
final class DashboardFiles implements HttpHandler {
  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8");

  private final HttpHandler api;

  private DashboardFiles(HttpHandler api) {
    this.api = api;
  }

  /** The dashboard's files in front of {@code api}. */
  static HttpHandler around(HttpHandler api) {
    return new DashboardFiles(api);
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getPath();
    String name = path.equals("/") ? "index.html" : path.substring(1);
    String type = TYPES.get(name.substring(name.lastIndexOf('.') + 1));
    if (!ex.getRequestMethod().equals("GET") || type == null || name.contains("/")) {
      api.handle(ex);
      return;
    }
    byte[] body;
    try (InputStream in = DashboardFiles.class.getResourceAsStream("/dashboard/" + name)) {
      if (in == null) {
        api.handle(ex);
        return;
      }
      body = in.readAllBytes();
    }
    ex.getResponseHeaders().set("Content-Type", type);
    ex.getResponseHeaders().set("Cache-Control", "no-cache");
    ex.sendResponseHeaders(200, body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }
}
