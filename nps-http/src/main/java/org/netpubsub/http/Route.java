package org.netpubsub.http;

/** A request handler: answers a {@link Request}, or throws (see RestServer for the mapping). */
@FunctionalInterface
public interface Route {
  Reply handle(Request request) throws Exception;
}
