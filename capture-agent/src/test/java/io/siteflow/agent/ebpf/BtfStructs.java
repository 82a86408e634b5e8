package io.siteflow.agent.ebpf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the structs of a BPF object's BTF (the {@code .BTF} section clang writes with {@code -g}): per struct its
 * size and its members' byte offsets, as the kernel and libbpf see the layout. For tests that hold the Java decoders
 * to the C source (little-endian ELF64 only: what clang writes for {@code -target bpf} on x86-64).
 */
final class BtfStructs {
    private static final int STRUCT = 4;

    /** A struct: its size in bytes and its members' byte offsets in declaration order. */
    record Layout(int size, Map<String, Integer> offsets) {
    }

    private BtfStructs() {
    }

    static Map<String, Layout> read(byte[] object) {
        ByteBuffer elf = ByteBuffer.wrap(object).order(ByteOrder.LITTLE_ENDIAN);
        long shoff = elf.getLong(0x28);
        int shentsize = elf.getShort(0x3A) & 0xFFFF;
        int shnum = elf.getShort(0x3C) & 0xFFFF;
        int shstrndx = elf.getShort(0x3E) & 0xFFFF;
        int names = (int) elf.getLong((int) (shoff + (long) shstrndx * shentsize) + 0x18);
        for (int i = 0; i < shnum; i++) {
            int sh = (int) (shoff + (long) i * shentsize);
            if (".BTF".equals(string(object, names + elf.getInt(sh)))) {
                return structs(elf, (int) elf.getLong(sh + 0x18));
            }
        }
        throw new IllegalArgumentException("no .BTF section in the object");
    }

    private static Map<String, Layout> structs(ByteBuffer elf, int btf) {
        if ((elf.getShort(btf) & 0xFFFF) != 0xEB9F) {
            throw new IllegalArgumentException("no BTF magic at offset " + btf);
        }
        int hdrLen = elf.getInt(btf + 4);
        int types = btf + hdrLen + elf.getInt(btf + 8);
        int typesEnd = types + elf.getInt(btf + 12);
        int strings = btf + hdrLen + elf.getInt(btf + 16);
        Map<String, Layout> out = new LinkedHashMap<>();
        for (int t = types; t < typesEnd; ) {
            int info = elf.getInt(t + 4);
            int kind = info >>> 24 & 0x1F;
            int vlen = info & 0xFFFF;
            if (kind == STRUCT) {
                Map<String, Integer> offsets = new LinkedHashMap<>();
                for (int m = 0; m < vlen; m++) {
                    int at = t + 12 + m * 12;
                    int bits = elf.getInt(at + 8) & (info < 0 ? 0xFF_FFFF : -1);
                    offsets.put(string(elf.array(), strings + elf.getInt(at)), bits / 8);
                }
                out.put(string(elf.array(), strings + elf.getInt(t)), new Layout(elf.getInt(t + 8), offsets));
            }
            t += 12 + extra(kind, vlen);
        }
        return out;
    }

    /** Bytes that follow a type's 12-byte header, by kind (linux/btf.h). */
    private static int extra(int kind, int vlen) {
        return switch (kind) {
            case 1, 14, 17 -> 4; // INT, VAR, DECL_TAG
            case 3 -> 12; // ARRAY
            case 4, 5, 15, 19 -> vlen * 12; // STRUCT, UNION, DATASEC, ENUM64
            case 6, 13 -> vlen * 8; // ENUM, FUNC_PROTO
            default -> 0;
        };
    }

    private static String string(byte[] b, int at) {
        int end = at;
        while (b[end] != 0) {
            end++;
        }
        return new String(b, at, end - at, StandardCharsets.US_ASCII);
    }
}
