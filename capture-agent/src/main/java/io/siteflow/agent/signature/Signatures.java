package io.siteflow.agent.signature;

import io.siteflow.model.L7Protocol;

/**
 * Runs the signatures over one payload in a fixed order: exact magic values first, length-framed
 * binary headers last, so that a weaker signature never hides a stronger one. Each signature rejects
 * on its first bytes, so a payload that matches nothing costs a few comparisons per signature.
 * Stateless.
 */
final class Signatures {

    static final int TCP = 6;
    static final int UDP = 17;

    private Signatures() {
    }

    /**
     * The protocol of a payload, or {@link L7Protocol#UNKNOWN}.
     *
     * @param ipProtocol 6 (TCP) or 17 (UDP); other values give UNKNOWN
     * @param cap        captured payload bytes from {@code off}, at least 1
     * @param len        payload length on the wire, at least {@code cap}
     */
    static L7Protocol detect(int ipProtocol, byte[] d, int off, int cap, int len) {
        if (ipProtocol == TCP) {
            return tcp(d, off, cap, len);
        }
        if (ipProtocol == UDP) {
            return udp(d, off, cap);
        }
        return L7Protocol.UNKNOWN;
    }

    private static L7Protocol tcp(byte[] d, int off, int cap, int len) {
        if (TlsSignature.matches(d, off, cap)) {
            return L7Protocol.TLS;
        }
        if (HttpSignature.matches(d, off, cap)) {
            return L7Protocol.HTTP;
        }
        if (T3Signature.handshake(d, off, cap)) {
            return L7Protocol.T3;
        }
        if (MiddlewareSignatures.giop(d, off, cap)) {
            return L7Protocol.GIOP;
        }
        if (MiddlewareSignatures.tmb(d, off, cap)) {
            return L7Protocol.COHERENCE_TMB;
        }
        if (DatabaseSignatures.postgres(d, off, cap, len)) {
            return L7Protocol.POSTGRESQL;
        }
        if (DatabaseSignatures.mysqlGreeting(d, off, cap, len)) {
            return L7Protocol.MYSQL;
        }
        if (TnsSignature.matches(d, off, cap, len)) {
            return L7Protocol.ORACLE_TNS;
        }
        if (T3Signature.message(d, off, cap, len)) {
            return L7Protocol.T3;
        }
        if (TlsSignature.record(d, off, cap, len)) { // a running TLS connection: any record, not only a hello
            return L7Protocol.TLS;
        }
        return L7Protocol.UNKNOWN;
    }

    private static L7Protocol udp(byte[] d, int off, int cap) {
        if (MiddlewareSignatures.tcmp(d, off, cap)) {
            return L7Protocol.COHERENCE_TCMP;
        }
        if (MiddlewareSignatures.miop(d, off, cap)) {
            return L7Protocol.GIOP;
        }
        return L7Protocol.UNKNOWN;
    }
}
