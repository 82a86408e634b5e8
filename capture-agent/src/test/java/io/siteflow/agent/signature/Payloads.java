package io.siteflow.agent.signature;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Protocol-faithful payload fixtures for the signature tests, built byte by byte. */
final class Payloads {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static Payloads of() {
        return new Payloads();
    }

    Payloads u8(int... values) {
        for (int v : values) {
            out.write(v);
        }
        return this;
    }

    Payloads u16(int v) {
        return u8(v >>> 8 & 0xff, v & 0xff);
    }

    Payloads u24(int v) {
        return u8(v >>> 16 & 0xff, v >>> 8 & 0xff, v & 0xff);
    }

    Payloads u32(long v) {
        return u8((int) (v >>> 24 & 0xff), (int) (v >>> 16 & 0xff), (int) (v >>> 8 & 0xff), (int) (v & 0xff));
    }

    Payloads ascii(String s) {
        out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
        return this;
    }

    Payloads zeros(int n) {
        out.writeBytes(new byte[n]);
        return this;
    }

    Payloads bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    int size() {
        return out.size();
    }

    byte[] build() {
        return out.toByteArray();
    }

    // ----- fixtures -----

    /** A TNS CONNECT as a JDBC thin client of Oracle 12c sends it (version 315, connect data at 70). */
    static byte[] tnsConnect(int version, int compatible) {
        String connectData = "(DESCRIPTION=(CONNECT_DATA=(SERVICE_NAME=ORCLPDB1)(CID=(PROGRAM=JDBC)))"
                + "(ADDRESS=(PROTOCOL=tcp)(HOST=10.1.0.10)(PORT=1521)))";
        Payloads p = of().u16(70 + connectData.length()).u16(0).u8(1, 0).u16(0)
                .u16(version).u16(compatible).u16(0x0c41).u16(0x2000).u16(0xffff).u16(0x7f08).u16(0)
                .u16(0x0100).u16(connectData.length()).u16(70);
        return p.zeros(70 - p.size()).ascii(connectData).build();
    }

    /** A TNS ACCEPT (2-byte length). */
    static byte[] tnsAccept() {
        return of().u16(41).u16(0).u8(2, 0).u16(0).u16(315).u16(0x0c41).u16(0x2000).u16(0x7fff)
                .u16(0x0100).u16(0).u16(41).zeros(19).build();
    }

    /** A TNS DATA packet with the 4-byte length of version 315 and later. */
    static byte[] tnsData32(int flags, int bodyLength) {
        return of().u32(10L + bodyLength).u8(6, flags).u16(0).u16(0).bytes(filler(bodyLength)).build();
    }

    /** A TNS DATA packet with the 2-byte length and packet checksum 0. */
    static byte[] tnsData16(int bodyLength) {
        return of().u16(10 + bodyLength).u16(0).u8(6, 0).u16(0).u16(0x0040).bytes(filler(bodyLength)).build();
    }

    static byte[] t3Hello() {
        return of().ascii("t3 12.2.1\nAS:255\nHL:19\nMS:10000000\n\n").build();
    }

    static byte[] t3Helo() {
        return of().ascii("HELO:12.2.1.3.0.false\nAS:2048\nHL:19\n\n").build();
    }

    /** A T3 message (19-byte header) whose body holds {@code text} after some serialized-object bytes. */
    static byte[] t3Message(String text) {
        byte[] body = of().u8(0xfe, 0x01, 0x00, 0x00, 0xac, 0xed, 0x00, 0x05, 0x73, 0x72).u16(text.length())
                .ascii(text).bytes(filler(16)).build();
        return of().u32(19L + body.length).u8(0x01, 0x65, 0x01).u32(0xffffffffL).u32(0xffffffffL)
                .u32(0).bytes(body).build();
    }

    /** A GIOP Request header of the given version. */
    static byte[] giop(int major, int minor) {
        return of().ascii("GIOP").u8(major, minor, 0x00, 0x00).u32(200).u32(1).u8(3).zeros(40).build();
    }

    static byte[] tcmp(int type) {
        return of().u32(type).u16(1).u16(2).u24(7).u24(7).bytes(filler(40)).build();
    }

    static byte[] tmb(long protocolId) {
        return of().u32(protocolId).u32(3).bytes(filler(24)).build();
    }

    static byte[] pgStartup() {
        byte[] params = of().ascii("user\0app\0database\0orders\0application_name\0psql\0\0").build();
        return of().u32(8 + params.length).u32(196608).bytes(params).build();
    }

    static byte[] pgRequest(int length, long code) {
        return of().u32(length).u32(code).zeros(length - 8).build();
    }

    static byte[] mysqlGreeting(String version) {
        byte[] body = of().u8(10).ascii(version).u8(0).u8(0x0c, 0, 0, 0).ascii("1tugx_#V").u8(0)
                .u16(0xffff).u8(0xff).u16(2).u16(0xdfff).u8(21).zeros(10).ascii("abcdefghijkl").u8(0)
                .ascii("caching_sha2_password").u8(0).build();
        return of().u8(body.length & 0xff, body.length >>> 8 & 0xff, 0, 0).bytes(body).build();
    }

    /**
     * A TLS 1.3-style ClientHello: a 32-byte session id, {@code suites} cipher suites, a
     * supported_versions extension, then server_name with {@code host} (none when null).
     */
    static byte[] clientHello(String host, int suites) {
        Payloads ext = of().u16(0x002b).u16(3).u8(2, 3, 4);
        if (host != null) {
            ext.u16(0).u16(host.length() + 5).u16(host.length() + 3).u8(0).u16(host.length()).ascii(host);
        }
        byte[] exts = ext.build();
        Payloads hello = of().u16(0x0303).bytes(filler(32)).u8(32).bytes(filler(32)).u16(suites * 2);
        for (int i = 0; i < suites; i++) {
            hello.u16(0x1301 + i);
        }
        byte[] body = hello.u8(1, 0).u16(exts.length).bytes(exts).build();
        return of().u8(22).u16(0x0301).u16(body.length + 4).u8(1).u24(body.length).bytes(body).build();
    }

    static byte[] serverHello() {
        return of().u8(22).u16(0x0303).u16(42).u8(2).u24(38).u16(0x0303).bytes(filler(32)).u8(0)
                .u16(0x1301).u8(0).build();
    }

    /** Bytes 0x41, 0x42, ... cycling through printable letters: never a magic value. */
    static byte[] filler(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('A' + i % 26);
        }
        return b;
    }
}
