package org.netpubsub.content.workload;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;

/**
 * Writes a workload as JSON lines (FORMATS.md): first every subscription {@code
 * {"kind":"filter","filter":"...","host":"h3"}} (or {@code "ports":[17]}, plus {@code "at_ms"} when
 * arrivals are modelled), then every event {@code {"kind":"event","attributes":{...}}}, attributes
 * in schema order. Streams through Jackson's generator, so events are never collected.
 */
public final class WorkloadJson {
  private static final JsonFactory FACTORY = new JsonFactory();

  private final JsonGenerator json;

  /** Writes to {@code out}; the caller owns (and closes) {@code out}. */
  public WorkloadJson(Writer out) {
    try {
      this.json = FACTORY.createGenerator(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    json.setRootValueSeparator(null); // lines end with '\n' instead
  }

  /** Every subscription, then every event; returns the number of lines written. */
  public long writeAll(Workload workload) throws IOException {
    long lines = 0;
    for (Subscription s : workload.subscriptions()) {
      write(s);
      lines++;
    }
    var events = workload.eventIterator();
    while (events.hasNext()) {
      write(events.next());
      lines++;
    }
    flush();
    return lines;
  }

  public void write(Subscription s) throws IOException {
    json.writeStartObject();
    json.writeStringField("kind", "filter");
    json.writeStringField("filter", s.filter());
    if (s.host().isPresent()) {
      json.writeStringField("host", s.host().get());
    }
    if (!s.ports().isEmpty()) {
      json.writeArrayFieldStart("ports");
      for (int p : s.ports()) {
        json.writeNumber(p);
      }
      json.writeEndArray();
    }
    if (s.atMs().isPresent()) {
      json.writeNumberField("at_ms", s.atMs().getAsDouble());
    }
    json.writeEndObject();
    json.writeRaw('\n');
  }

  public void write(Event e) throws IOException {
    json.writeStartObject();
    json.writeStringField("kind", "event");
    json.writeObjectFieldStart("attributes");
    for (Attribute a : e.schema().attributes()) {
      if (a instanceof IntAttribute) {
        json.writeNumberField(a.name(), e.intValue(a.position()));
      } else {
        json.writeStringField(a.name(), e.stringValue(a.position()));
      }
    }
    json.writeEndObject();
    json.writeEndObject();
    json.writeRaw('\n');
  }

  public void flush() throws IOException {
    json.flush();
  }

  /** One subscription as a JSON line without the newline (for tests and logs). */
  public static String line(Subscription s) {
    StringWriter out = new StringWriter();
    try {
      WorkloadJson w = new WorkloadJson(out);
      w.write(s);
      w.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString().stripTrailing();
  }

  /** One event as a JSON line without the newline (for tests and logs). */
  public static String line(Event e) {
    StringWriter out = new StringWriter();
    try {
      WorkloadJson w = new WorkloadJson(out);
      w.write(e);
      w.flush();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return out.toString().stripTrailing();
  }
}
