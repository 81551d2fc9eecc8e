package org.netpubsub.http;

import java.nio.ByteBuffer;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A response whose last write waits until the request's body has been read to its end (without
 * blocking). An answer sent with the body unread (a refusal before the route reads it, or an answer
 * that reaches the handler before the body arrives) makes Jetty close the connection after it; a
 * client that has meanwhile sent its next request on that connection gets no answer ("header parser
 * received no bytes"), and one still sending gets a reset. Only for a declared body of bounded
 * length: reading a longer one would let anyone make the server read without bound.
 */
final class DrainingResponse extends Response.Wrapper {
  DrainingResponse(Request request, Response response) {
    super(request, response);
  }

  @Override
  public void write(boolean last, ByteBuffer content, Callback callback) {
    if (!last) {
      super.write(false, content, callback);
      return;
    }
    Content.Source.consumeAll(
        getRequest(), Callback.from(() -> super.write(true, content, callback), callback::failed));
  }
}
