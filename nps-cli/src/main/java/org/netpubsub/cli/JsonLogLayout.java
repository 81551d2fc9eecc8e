package org.netpubsub.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --log-format json}: one JSON object per line with the text format's fields, snake_case
 * (Logback's own JsonEncoder writes camelCase and nests its fields).
 */
public final class JsonLogLayout extends LayoutBase<ILoggingEvent> {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneId.systemDefault());

  @Override
  public String doLayout(ILoggingEvent e) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("time", TIME.format(Instant.ofEpochMilli(e.getTimeStamp())));
    o.put("level", e.getLevel().toString());
    o.put("thread", e.getThreadName());
    o.put("logger", e.getLoggerName());
    o.put("message", e.getFormattedMessage());
    IThrowableProxy t = e.getThrowableProxy();
    if (t != null) {
      o.put("exception", ThrowableProxyUtil.asString(t));
    }
    try {
      return JsonOutput.MAPPER.writeValueAsString(o) + CoreConstants.LINE_SEPARATOR;
    } catch (JsonProcessingException x) {
      return "{\"message\":\"unprintable log event\"}" + CoreConstants.LINE_SEPARATOR;
    }
  }
}
