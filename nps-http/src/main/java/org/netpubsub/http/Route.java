package org.netpubsub.http;

/** A request handler: answers a {@link Request}, or throws (see RestServer for the mapping). */
@FunctionalInterface
public interface Route {
  Reply handle(Request request) throws Exception;

  /**
   * A route answered on the thread that read the request ({@link RestServer.Builder#inline}): it
   * never blocks and takes microseconds.
   */
  record Inline(Route route) implements Route {
    @Override
    public Reply handle(Request request) throws Exception {
      return route.handle(request);
    }
  }
}
