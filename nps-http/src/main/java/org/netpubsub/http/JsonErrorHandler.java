package org.netpubsub.http;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The errors Jetty answers itself, before a request reaches {@link Dispatcher} (a malformed request
 * line, headers too large): the same {@code {"error":{...}}} shape as ours, not an HTML page.
 */
final class JsonErrorHandler extends ErrorHandler {
  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int status,
      String message,
      Throwable cause,
      Callback callback) {
    String m = message == null || message.isBlank() ? HttpStatus.getMessage(status) : message;
    Dispatcher.write(response, callback, new ApiError(status, m).reply());
  }
}
