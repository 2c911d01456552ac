package site.ycsb.workloads;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import java.util.HashMap;
import java.util.zip.Deflater;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.generator.ZipfianGenerator;
import site.ycsb.measurements.Measurements;

/**
 * The YCSB side of make ycsb-fidelity: draws from YCSB's own CoreWorkload
 * and generators (site.ycsb:core from Maven Central) for the cases the Go
 * side (bench/ycsb-fidelity/compare) sends on stdin, one per line:
 *
 *   NAME KIND DRAWS key=value ...
 *
 * and prints one result line per case on stdout:
 *
 *   hist NAME v:count v:count ...   (a histogram of the values drawn)
 *   seq NAME v v v ...              (the values in the order drawn)
 *   num NAME.stat value             (a figure)
 *
 * It lives in CoreWorkload's package to reach what YCSB keeps
 * package-private or protected (nextKeynum, the generators), so that the
 * draws are CoreWorkload's own, not a copy of its logic.
 */
public final class FidelityDriver {
  private FidelityDriver() {
  }

  /** Records what CoreWorkload hands a database binding. */
  static final class RecordingDB extends DB {
    final List<String> keys = new ArrayList<>();
    final List<Map<String, byte[]>> records = new ArrayList<>();

    @Override
    public Status read(String t, String k, Set<String> f, Map<String, ByteIterator> r) {
      return Status.OK;
    }

    @Override
    public Status scan(String t, String k, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
      return Status.OK;
    }

    @Override
    public Status update(String t, String k, Map<String, ByteIterator> v) {
      return Status.OK;
    }

    @Override
    public Status insert(String t, String k, Map<String, ByteIterator> v) {
      keys.add(k);
      Map<String, byte[]> rec = new TreeMap<>();
      for (Map.Entry<String, ByteIterator> e : v.entrySet()) {
        rec.put(e.getKey(), e.getValue().toArray()); // as MongoDbClient.insert does
      }
      records.add(rec);
      return Status.OK;
    }

    @Override
    public Status delete(String t, String k) {
      return Status.OK;
    }
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      line = line.trim();
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split(" ");
      String name = f[0];
      String kind = f[1];
      long draws = Long.parseLong(f[2]);
      Properties p = new Properties();
      for (int i = 3; i < f.length; i++) {
        int eq = f[i].indexOf('=');
        p.setProperty(f[i].substring(0, eq), f[i].substring(eq + 1));
      }
      run(out, name, kind, draws, p);
      out.flush();
    }
  }

  static CoreWorkload workload(Properties p) throws Exception {
    Measurements.setProperties(p);
    CoreWorkload w = new CoreWorkload();
    w.init(p);
    return w;
  }

  static void run(PrintStream out, String name, String kind, long draws, Properties p) throws Exception {
    TreeMap<Long, Long> hist = new TreeMap<>();
    switch (kind) {
    case "keys": { // CoreWorkload's key choice for reads and updates
      CoreWorkload w = workload(p);
      for (long i = 0; i < draws; i++) {
        hist.merge(w.nextKeynum(), 1L, Long::sum);
      }
      break;
    }
    case "sequence": { // the keys in order
      CoreWorkload w = workload(p);
      StringBuilder b = new StringBuilder("seq " + name);
      for (long i = 0; i < draws; i++) {
        b.append(' ').append(w.nextKeynum());
      }
      out.println(b);
      return;
    }
    case "latest": // the operation mix with inserts: recency of the keys read
    case "mixkeys": { // the operation mix with inserts: the keys read
      CoreWorkload w = workload(p);
      for (long i = 0; i < draws; i++) {
        if ("INSERT".equals(w.operationchooser.nextString())) {
          long k = w.transactioninsertkeysequence.nextValue();
          w.transactioninsertkeysequence.acknowledge(k);
          continue;
        }
        long k = w.nextKeynum();
        if (kind.equals("latest")) {
          k = w.transactioninsertkeysequence.lastValue() - k;
        }
        hist.merge(k, 1L, Long::sum);
      }
      break;
    }
    case "zipfian": { // the plain ZipfianGenerator over recordcount items
      ZipfianGenerator z = new ZipfianGenerator(0, Long.parseLong(p.getProperty("recordcount")) - 1);
      for (long i = 0; i < draws; i++) {
        hist.merge(z.nextValue(), 1L, Long::sum);
      }
      break;
    }
    case "fieldlength": {
      Measurements.setProperties(p);
      NumberGenerator g = CoreWorkload.getFieldLengthGenerator(p);
      for (long i = 0; i < draws; i++) {
        hist.merge(g.nextValue().longValue(), 1L, Long::sum);
      }
      break;
    }
    case "scanlength": {
      CoreWorkload w = workload(p);
      for (long i = 0; i < draws; i++) {
        hist.merge(w.scanlength.nextValue().longValue(), 1L, Long::sum);
      }
      break;
    }
    case "operations": {
      CoreWorkload w = workload(p);
      TreeMap<String, Long> ops = new TreeMap<>();
      for (long i = 0; i < draws; i++) {
        ops.merge(w.operationchooser.nextString(), 1L, Long::sum);
      }
      StringBuilder b = new StringBuilder("hist " + name);
      for (Map.Entry<String, Long> e : ops.entrySet()) {
        b.append(' ').append(e.getKey()).append(':').append(e.getValue());
      }
      out.println(b);
      return;
    }
    case "keynames": { // the load phase's keys, through doInsert
      CoreWorkload w = workload(p);
      RecordingDB db = new RecordingDB();
      for (long i = 0; i < draws; i++) {
        w.doInsert(db, null);
      }
      out.println("seq " + name + " " + String.join(" ", db.keys));
      return;
    }
    case "records": { // the load phase's records, as the MongoDB binding writes them
      CoreWorkload w = workload(p);
      RecordingDB db = new RecordingDB();
      for (long i = 0; i < draws; i++) {
        w.doInsert(db, null);
      }
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      for (int i = 0; i < db.keys.size(); i++) {
        all.write(bson(db.keys.get(i), db.records.get(i)));
      }
      byte[] raw = all.toByteArray();
      Deflater d = new Deflater(); // zlib, its default level (6)
      d.setInput(raw);
      d.finish();
      byte[] buf = new byte[raw.length + 1024];
      long z = 0;
      while (!d.finished()) {
        z += d.deflate(buf);
      }
      d.end();
      long printable = 0;
      long bytes = 0;
      for (Map<String, byte[]> r : db.records) {
        for (byte[] v : r.values()) {
          for (byte x : v) {
            bytes++;
            if (x >= 32) {
              printable++;
            }
          }
        }
      }
      out.println("num " + name + ".bson " + ((double) raw.length / draws));
      out.println("num " + name + ".zlib " + ((double) z / draws));
      out.println("num " + name + ".printable " + ((double) printable / bytes));
      return;
    }
    default:
      throw new IllegalArgumentException("unknown kind " + kind);
    }
    StringBuilder b = new StringBuilder("hist " + name);
    for (Map.Entry<Long, Long> e : hist.entrySet()) {
      b.append(' ').append(e.getKey()).append(':').append(e.getValue());
    }
    out.println(b);
  }

  /**
   * bson encodes a record as the MongoDB binding writes it: a document
   * with _id the key (a string), then each field as binary subtype 0.
   */
  static byte[] bson(String key, Map<String, byte[]> fields) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(0);
    b.write(0);
    b.write(0);
    b.write(0);
    byte[] k = key.getBytes(StandardCharsets.UTF_8);
    b.write(0x02);
    cstring(b, "_id");
    int32(b, k.length + 1);
    b.write(k, 0, k.length);
    b.write(0);
    for (Map.Entry<String, byte[]> e : fields.entrySet()) {
      b.write(0x05);
      cstring(b, e.getKey());
      int32(b, e.getValue().length);
      b.write(0x00);
      b.write(e.getValue(), 0, e.getValue().length);
    }
    b.write(0);
    byte[] doc = b.toByteArray();
    int n = doc.length;
    doc[0] = (byte) n;
    doc[1] = (byte) (n >> 8);
    doc[2] = (byte) (n >> 16);
    doc[3] = (byte) (n >> 24);
    return doc;
  }

  static void cstring(ByteArrayOutputStream b, String s) {
    byte[] x = s.getBytes(StandardCharsets.UTF_8);
    b.write(x, 0, x.length);
    b.write(0);
  }

  static void int32(ByteArrayOutputStream b, int v) {
    b.write(v);
    b.write(v >> 8);
    b.write(v >> 16);
    b.write(v >> 24);
  }
}
