package org.netpubsub.client;

/**
 * The controller refused a request (its HTTP status and the reason from its {@code
 * {"error":{"message": …}}} body), or could not be reached at all ({@link #status()} 0).
 */
public final class ControllerException extends RuntimeException {
  /** The status of a request that got no HTTP answer (connection refused, timeout). */
  public static final int UNREACHABLE = 0;

  private final int status;
  private final String reason;

  public ControllerException(String request, int status, String reason) {
    super(
        request
            + ": "
            + (status == UNREACHABLE ? "controller unreachable" : "HTTP " + status)
            + ": "
            + reason);
    this.status = status;
    this.reason = reason;
  }

  /** The HTTP status, or {@link #UNREACHABLE}. */
  public int status() {
    return status;
  }

  /** The controller's reason (its {@code error.message}), or what went wrong on the way. */
  public String reason() {
    return reason;
  }

  /** Whether the request itself was at fault (400, 404, 413): retrying it cannot help. */
  public boolean isClientError() {
    return status >= 400 && status < 500 && status != 409 && status != 429;
  }
}
