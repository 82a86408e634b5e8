// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * siteflow's in-kernel flow aggregator (capture-agent/docs/ebpf.md): TC sched_cls programs, siteflow_in on the
 * clsact ingress hook of one interface and siteflow_out on its egress hook, that aggregate packets per
 * bidirectional flow into a hash map user space drains. It never changes a packet's fate (always TC_ACT_UNSPEC).
 *
 * Counts exactly what the agent's libpcap path counts (decode/, flow/FlowTable): frame bytes are the link-layer
 * wire length (skb->len, +4 for a VLAN tag the driver took off), IP bytes the IPv4 total length or 40 + the IPv6
 * payload length; ports for TCP, UDP, UDP-Lite and SCTP of a first fragment; TCP flags OR-ed per direction; a GSO
 * packet on egress as the segments it becomes (count()). Per TCP flow entry also the handshake RTT (handshake()) and
 * the smallest data-segment RTT sample (data_rtt(), the packet path's flow/DataRtt rules).
 *
 * Maps:
 *   flows       ARRAY_OF_MAPS[1] -> the flow map in use (flows_a or flows_b): user space swaps it, and the swap
 *               returns only once no program run can still hold the old one (the kernel waits for an RCU grace
 *               period on a map-in-map update), so the old map is drained whole without losing a count.
 *   handshakes  LRU hash: SYN time and SYN/ACK sequence per flow, until the ACK of the SYN/ACK gives the RTT.
 *   remote      LPM trie of the -F networks over 128-bit addresses (IPv4 mapped); config[0] bit 0 turns it on.
 *   overflow    ring buffer: a packet of a new flow that found the flow map full, one record each (the agent adds
 *               it to the flow); lost only when the ring is full too, and then counted.
 *   counters    per-CPU: packets seen, not IP, malformed, filtered out by -F, counted, flows created, map full,
 *               lost (packets: a GSO packet on egress counts as its segments), payload records sent and lost.
 *   payloads    ring buffer for the L7 signatures, SNI and DB call timing (payload()): the frame's first bytes of
 *               each direction's first PAYLOAD_BUDGET payload segments, then one small record per change of
 *               direction of a TCP flow's payload (a request run followed by a response run: one DB call).
 *   l7state     LRU hash: per flow, payload records sent per direction, the highest sequence end per direction,
 *               the direction and time of the last payload segment that advanced, and the verdict user space
 *               writes once it has decided the flow: 1 a DB flow (no more payload records, direction changes
 *               still), 2 done (nothing more).
 *
 * Built with: clang -O2 -g -target bpf -c flows.bpf.c (UAPI headers only, no CO-RE).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/in.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define MAX_FLOWS 65536
#define MAX_HANDSHAKES 16384
#define MAX_CIDRS 1024
/* Payload records per flow and direction: the signature detector's budget (SignatureDetector.DEFAULT_MAX_PACKETS). */
#define PAYLOAD_BUDGET 4
/* The most frame bytes a payload record carries (config[1], --snaplen, may ask for fewer). */
#define FRAME_MAX 512

#define IPPROTO_UDPLITE_ 136
#define IPPROTO_SCTP_ 132

#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_ACK 0x10

enum counter {
	C_SEEN = 0,      /* every packet the program ran on */
	C_NOT_IP = 1,    /* not IPv4/IPv6 (ARP, LLDP...) */
	C_MALFORMED = 2, /* IP header not whole in the packet */
	C_FILTERED = 3,  /* outside -F: not both or neither end in the networks */
	C_COUNTED = 4,   /* aggregated into a flow */
	C_CREATED = 5,   /* flow entries created */
	C_MAP_FULL = 6,  /* a new flow that found the map full: sent to the overflow ring buffer instead */
	C_LOST = 7,      /* ... and found the ring buffer full too: not counted anywhere */
	C_PAYLOAD = 8,   /* records sent to the payloads ring buffer (payload and direction-change records) */
	C_PAYLOAD_LOST = 9, /* records the payloads ring buffer had no room for */
	C_COUNTERS = 10,
};

struct flow_key {
	__u64 a_hi;      /* the lower end (address, then port, as unsigned numbers): first 8 address bytes */
	__u64 a_lo;      /* last 8 (IPv4-mapped for IPv4: 0x0000ffff_<IPv4>), as the agent's IpAddresses */
	__u64 b_hi;
	__u64 b_lo;
	__u16 a_port;    /* host byte order */
	__u16 b_port;
	__u8 proto;
	__u8 pad[3];
};

struct flow_val {
	__u64 first_ns;  /* bpf_ktime_get_ns of the entry's first packet */
	__u64 last_ns;
	__u64 ab_packets;
	__u64 ab_ip_bytes;
	__u64 ab_frame_bytes;
	__u64 ba_packets;
	__u64 ba_ip_bytes;
	__u64 ba_frame_bytes;
	__u32 ab_flags;  /* OR of the TCP flags a -> b (9 bits, NS..FIN) */
	__u32 ba_flags;
	__u32 first;     /* the entry's first packet: its TCP flags, bit 16 set when it went b -> a */
	__u32 rtt_us;    /* handshake RTT + 1 in microseconds, 0 when none completed in this entry */
	/* Data-segment RTT (data_rtt()): per direction the data segment awaiting an ACK, as
	 * end sequence << 32 | (ns since first_ns + 1), 0 when none; swapped whole by one compare-and-swap. */
	__u64 pend_ab;
	__u64 pend_ba;
	__u32 half_a;    /* latest half round trip (capture point -> a -> capture point) + 1 in ns, 0 when none */
	__u32 half_b;    /* the same through b */
	__u32 data_rtt_us; /* smallest sample (half_a + half_b) + 1 in microseconds, 0 when none in this entry */
	__u32 pad;
};

struct handshake {
	__u64 syn_ns;
	__u32 synack_seq;
	__u8 state;      /* 1 SYN seen, 2 SYN/ACK seen */
	__u8 syn_ba;     /* the SYN went b -> a */
	__u8 pad[2];
};

struct lpm_key {
	__u32 prefixlen;
	__u8 addr[16];
};

struct flow_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_FLOWS);
	__type(key, struct flow_key);
	__type(value, struct flow_val);
};

struct flow_map flows_a SEC(".maps");
struct flow_map flows_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct flow_map);
} flows SEC(".maps") = {
	.values = { [0] = &flows_a },
};

/* One packet (or GSO packet) of a flow the flow map could not take. */
struct overflow_rec {
	struct flow_key key;
	__u64 ts_ns;
	__u64 ip_bytes;
	__u64 frame_bytes;
	__u32 packets;
	__u16 flags;
	__u8 ba;         /* it went b -> a */
	__u8 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} overflow SEC(".maps");

/*
 * What payload() sends user space: kind 1, a payload segment with the frame's first caplen bytes (from the Ethernet
 * header, as a capture with that snap length gives it); kind 2, a direction change without bytes. flags: bit 0 the
 * segment went b -> a, bit 1 it starts a run (the first segment in its direction, after the other direction's, whose
 * sequence end advances), bit 2 its sequence end advanced (TCP). prev_ns: for a run start, the time of the other
 * direction's last advancing segment (the end of the request, when this is a response).
 */
struct payload_hdr {
	struct flow_key key;
	__u64 ts_ns;
	__u64 prev_ns;
	__u32 wire_len;  /* the frame's length (skb->len, + 4 for a VLAN tag the driver took off) */
	__u16 caplen;    /* frame bytes that follow (kind 1) */
	__u8 kind;
	__u8 flags;
};

struct payload_rec {
	struct payload_hdr h;
	__u8 frame[FRAME_MAX];
};

struct l7_state {
	__u64 last_ns;   /* time of the last payload segment that advanced its direction's sequence */
	__u32 end_ab;    /* highest sequence end a -> b, b -> a */
	__u32 end_ba;
	__u8 sent_ab;    /* payload records sent a -> b, b -> a */
	__u8 sent_ba;
	__u8 known;      /* bit 0: end_ab set, bit 1: end_ba set */
	__u8 last_dir;   /* 0 none yet, 1 a -> b, 2 b -> a */
	__u8 verdict;    /* written by user space: 0 undecided, 1 a DB flow, 2 done */
	__u8 pad[3];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);
} payloads SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MAX_FLOWS);
	__type(key, struct flow_key);
	__type(value, struct l7_state);
} l7state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MAX_HANDSHAKES);
	__type(key, struct flow_key);
	__type(value, struct handshake);
} handshakes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, MAX_CIDRS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct lpm_key);
	__type(value, __u8);
} remote SEC(".maps");

/* [0] bit 0: the -F filter is on; [1]: frame bytes per payload record (--snaplen, at most FRAME_MAX; 0: none). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} config SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, C_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static __always_inline void bump(__u32 which, __u32 n)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &which);
	if (c)
		__sync_fetch_and_add(c, n); /* egress in task context can be interrupted by ingress on the same CPU */
}

/* The facts of one packet the flow needs, in the packet's own direction. */
struct pkt {
	__u64 src_hi;
	__u64 src_lo;
	__u64 dst_hi;
	__u64 dst_lo;
	__u16 sport;
	__u16 dport;
	__u8 proto;
	__u16 flags;
	__u32 seq;
	__u32 ack;
	__u32 ip_bytes;
	__u32 l2_len;    /* Ethernet header (+ VLAN tag) */
	__u32 hdr_end;   /* where the transport header ends (frame offset), 0 when it was not read */
	__u32 pay_len;   /* transport payload bytes (from the IP length), 0 when the header was not read */
};

static __always_inline int ipv6_ext(__u8 next)
{
	return next == 0 || next == 43 || next == 44 || next == 51 || next == 60 || next == 135 || next == 139
		|| next == 140;
}

/* Ports (and TCP flags, seq, ack) of the transport header at off, within the datagram ending at ip_end. */
static __always_inline void transport(void *data, void *data_end, __u32 off, __u32 ip_end, struct pkt *p)
{
	if (p->proto == IPPROTO_TCP) {
		__u8 *t = data + off;
		if ((void *)(t + 20) > data_end || ip_end < off + 20)
			return;
		__u32 doff = (t[12] >> 4) * 4;
		if (doff < 20 || doff > ip_end - off)
			return;
		p->sport = ((__u16)t[0] << 8) | t[1];
		p->dport = ((__u16)t[2] << 8) | t[3];
		p->seq = bpf_ntohl(*(__u32 *)(t + 4));
		p->ack = bpf_ntohl(*(__u32 *)(t + 8));
		p->flags = ((__u16)(t[12] & 1) << 8) | t[13];
		p->hdr_end = off + doff;
		p->pay_len = ip_end - off - doff;
	} else if (p->proto == IPPROTO_UDP || p->proto == IPPROTO_UDPLITE_ || p->proto == IPPROTO_SCTP_) {
		__u32 len = p->proto == IPPROTO_SCTP_ ? 12 : 8;
		__u8 *t = data + off;
		if ((void *)(t + 8) > data_end || ip_end < off + len)
			return;
		if (len == 12 && (void *)(t + 12) > data_end)
			return;
		p->sport = ((__u16)t[0] << 8) | t[1];
		p->dport = ((__u16)t[2] << 8) | t[3];
		p->hdr_end = off + len;
		p->pay_len = ip_end - off - len;
	}
}

/* 0 when decoded, 1 when not IP, 2 when the IP header is not whole. */
static __always_inline int decode(struct __sk_buff *skb, struct pkt *p)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	if ((void *)(eth + 1) > data_end)
		return 1;
	__u16 type = eth->h_proto;
	__u32 off = sizeof(*eth);
	if (type == bpf_htons(ETH_P_8021Q) || type == bpf_htons(ETH_P_8021AD)) {
		__u16 *inner = data + off + 2;
		if ((void *)(inner + 1) > data_end)
			return 1;
		type = *inner;
		off += 4;
	}
	__u32 reported = skb->len;
	p->l2_len = off;
	if (type == bpf_htons(ETH_P_IP)) {
		__u8 *ip = data + off;
		if ((void *)(ip + 20) > data_end)
			return 2;
		if (ip[0] >> 4 != 4)
			return 2;
		__u32 ihl = (ip[0] & 0x0F) * 4;
		if (ihl < 20)
			return 2;
		__u32 total = ((__u32)ip[2] << 8) | ip[3];
		if (total == 0)
			total = reported > off ? reported - off : 0;
		else if (total < ihl)
			return 2;
		p->ip_bytes = total;
		p->proto = ip[9];
		__u32 s4, d4;
		__builtin_memcpy(&s4, ip + 12, 4);
		__builtin_memcpy(&d4, ip + 16, 4);
		p->src_lo = 0x0000ffff00000000ULL | bpf_ntohl(s4);
		p->dst_lo = 0x0000ffff00000000ULL | bpf_ntohl(d4);
		__u16 frag = ((__u16)ip[6] << 8) | ip[7];
		if ((frag & 0x1FFF) == 0 && ihl <= 60)
			transport(data, data_end, off + ihl, off + total, p);
		return 0;
	}
	if (type == bpf_htons(ETH_P_IPV6)) {
		__u8 *ip = data + off;
		if ((void *)(ip + 40) > data_end)
			return 2;
		if (ip[0] >> 4 != 6)
			return 2;
		__u32 payload = ((__u32)ip[4] << 8) | ip[5];
		__u8 next = ip[6];
		p->ip_bytes = 40 + payload;
		__u64 w[4];
		__builtin_memcpy(w, ip + 8, 32);
		p->src_hi = bpf_be64_to_cpu(w[0]);
		p->src_lo = bpf_be64_to_cpu(w[1]);
		p->dst_hi = bpf_be64_to_cpu(w[2]);
		p->dst_lo = bpf_be64_to_cpu(w[3]);
		__u32 q = off + 40;
		int later_fragment = 0;
#pragma unroll
		for (int i = 0; i < 6; i++) {
			if (!ipv6_ext(next) || later_fragment)
				break;
			__u8 *h = data + q;
			if ((void *)(h + 8) > data_end)
				return 0;
			__u32 len = next == 44 ? 8 : next == 51 ? ((__u32)h[1] + 2) * 4 : ((__u32)h[1] + 1) * 8;
			if (next == 44 && ((((__u16)h[2] << 8) | h[3]) & 0xFFF8) != 0)
				later_fragment = 1;
			next = h[0];
			q += len;
		}
		p->proto = next;
		if (!later_fragment && !ipv6_ext(next) && q < 0xFFFF)
			transport(data, data_end, q, off + 40 + payload, p);
		return 0;
	}
	return 1;
}

/* The agent's FlowTable order: address (hi, then lo) as unsigned, then port. */
static __always_inline int lower(struct pkt *p)
{
	if (p->src_hi != p->dst_hi)
		return p->src_hi < p->dst_hi;
	if (p->src_lo != p->dst_lo)
		return p->src_lo < p->dst_lo;
	return p->sport <= p->dport;
}

/* In the -F networks: one trie over the 128-bit form, IPv4 networks as ::ffff:a.b.c.d/(96 + p) (model/Cidr). */
static __always_inline int inside(__u64 hi, __u64 lo)
{
	struct lpm_key k = { .prefixlen = 128 };
	__u64 be[2] = { bpf_cpu_to_be64(hi), bpf_cpu_to_be64(lo) };
	__builtin_memcpy(k.addr, be, 16);
	return bpf_map_lookup_elem(&remote, &k) != 0;
}

static __always_inline void handshake(struct flow_key *key, struct pkt *p, int ba, __u64 now, void *map)
{
	__u16 sa = p->flags & (TH_SYN | TH_ACK);
	if (sa == TH_SYN) {
		struct handshake h = { .syn_ns = now, .state = 1, .syn_ba = ba };
		bpf_map_update_elem(&handshakes, key, &h, BPF_ANY);
		return;
	}
	if (sa != (TH_SYN | TH_ACK) && sa != TH_ACK)
		return;
	struct handshake *h = bpf_map_lookup_elem(&handshakes, key);
	if (!h)
		return;
	if (sa == (TH_SYN | TH_ACK)) {
		if (h->syn_ba != ba) {
			h->synack_seq = p->seq;
			h->state = 2;
		}
		return;
	}
	if (h->syn_ba == ba && h->state == 2 && p->ack == h->synack_seq + 1) {
		struct flow_val *v = bpf_map_lookup_elem(map, key);
		if (v) {
			__u64 us = (now - h->syn_ns) / 1000;
			v->rtt_us = us >= 0xFFFFFFFE ? 0xFFFFFFFF : (__u32)us + 1;
		}
		bpf_map_delete_elem(&handshakes, key);
	}
}

/* Lowers *slot to us (a smallest value, 0 none): two tries, so a concurrent store is not simply overwritten. */
static __always_inline void lower_min(__u32 *slot, __u32 us)
{
	__u32 cur = *(volatile __u32 *)slot;
	if (cur != 0 && cur <= us)
		return;
	if (__sync_val_compare_and_swap(slot, cur, us) == cur)
		return;
	cur = *(volatile __u32 *)slot;
	if (cur == 0 || cur > us)
		__sync_val_compare_and_swap(slot, cur, us);
}

/*
 * Data-segment RTT, the rules of the packet path's flow/DataRtt.sample: an ACK covering the other direction's pending
 * data segment completes a half round trip (capture point -> receiver -> capture point); the two latest halves add up
 * to a sample; the entry keeps the smallest. Then a data segment starts a sample in its direction when none is
 * pending there; for a GSO packet on egress its first segment's end (what libpcap sees first). Times are ns since
 * the entry's first packet, so an entry (one drain period) can hold 4.29 s of them; a packet later than that starts
 * and completes nothing. Claiming a pending segment is one compare-and-swap, so ingress and egress of one flow on
 * two CPUs complete it once; the halves are plain stores, and two halves completed at the same instant may each be
 * added to the other's previous value (a sample of two real halves, never a torn one).
 */
static __always_inline void data_rtt(struct flow_val *v, struct pkt *p, int ba, __u64 now, __u32 segs, __u32 gso)
{
	__s64 rel = (__s64)(now - v->first_ns);
	if (rel < 0 || rel >= 0xFFFFFFFFLL)
		return;
	__u32 t = (__u32)rel + 1;
	if (p->flags & TH_ACK) {
		__u64 *pend = ba ? &v->pend_ab : &v->pend_ba;
		__u64 w = *(volatile __u64 *)pend;
		if (w != 0 && (__s32)(p->ack - (__u32)(w >> 32)) >= 0 && __sync_val_compare_and_swap(pend, w, 0) == w) {
			__u32 since = (__u32)w;
			if (t >= since) {
				__u32 half = t - since;
				__u32 other;
				if (ba) {
					v->half_b = half + 1;
					other = *(volatile __u32 *)&v->half_a;
				} else {
					v->half_a = half + 1;
					other = *(volatile __u32 *)&v->half_b;
				}
				if (other != 0) {
					__u64 us = ((__u64)half + other - 1) / 1000;
					lower_min(&v->data_rtt_us, us >= 0xFFFFFFFE ? 0xFFFFFFFF : (__u32)us + 1);
				}
			}
		}
	}
	if (p->pay_len > 0) {
		__u64 *mine = ba ? &v->pend_ba : &v->pend_ab;
		if (*(volatile __u64 *)mine == 0) {
			__u32 len = segs > 1 && gso > 0 && gso < p->pay_len ? gso : p->pay_len;
			__sync_val_compare_and_swap(mine, 0, (__u64)(p->seq + len) << 32 | t);
		}
	}
}

/* Reserves and sends a payload record: the header, and for kind 1 the frame's first n bytes. */
static __always_inline void send_payload(struct __sk_buff *skb, struct flow_key *key, __u64 now, __u64 prev,
					 __u32 wire, __u8 flags, __u32 n)
{
	if (n > 0 && n <= FRAME_MAX) {
		struct payload_rec *r = bpf_ringbuf_reserve(&payloads, sizeof(*r), 0);
		if (!r) {
			bump(C_PAYLOAD_LOST, 1);
			return;
		}
		if (bpf_skb_load_bytes(skb, 0, r->frame, n) != 0) {
			bpf_ringbuf_discard(r, 0);
			return;
		}
		r->h.key = *key;
		r->h.ts_ns = now;
		r->h.prev_ns = prev;
		r->h.wire_len = wire;
		r->h.caplen = n;
		r->h.kind = 1;
		r->h.flags = flags;
		bpf_ringbuf_submit(r, 0);
	} else {
		struct payload_hdr *h = bpf_ringbuf_reserve(&payloads, sizeof(*h), 0);
		if (!h) {
			bump(C_PAYLOAD_LOST, 1);
			return;
		}
		h->key = *key;
		h->ts_ns = now;
		h->prev_ns = prev;
		h->wire_len = wire;
		h->caplen = 0;
		h->kind = 2;
		h->flags = flags;
		bpf_ringbuf_submit(h, 0);
	}
	bump(C_PAYLOAD, 1);
}

/*
 * A packet with transport payload (TCP or UDP): while user space has not decided the flow (l7state's verdict), the frame's
 * first bytes of each direction's first PAYLOAD_BUDGET payload segments, for the signature detector; and for TCP, one
 * record each time the payload changes direction (a run from one end after a run from the other, counting only
 * segments whose sequence end advances, so a retransmission starts nothing), carrying the time of the other run's
 * last segment: user space counts a DB call at every request -> response change of a DB flow. Per packet one
 * l7state lookup (decided: done) and a few stores; a record only at those moments. Not atomic: two
 * CPUs running one flow's segments at the same instant may both send within the budget (user space ignores the
 * extra one) or see one run change twice.
 */
static __always_inline void payload(struct __sk_buff *skb, struct flow_key *key, struct pkt *p, int ba, __u64 now,
				    __u32 wire)
{
	if (p->pay_len == 0 || (p->proto != IPPROTO_TCP && p->proto != IPPROTO_UDP))
		return;
	struct l7_state *s = bpf_map_lookup_elem(&l7state, key);
	if (!s) {
		struct l7_state fresh = {};
		bpf_map_update_elem(&l7state, key, &fresh, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&l7state, key);
		if (!s)
			return;
	}
	__u8 decided = s->verdict;
	if (decided >= 2)
		return;
	__u8 flags = ba ? 1 : 0;
	__u64 prev = 0;
	if (p->proto == IPPROTO_TCP) {
		__u32 end = p->seq + p->pay_len;
		__u8 bit = ba ? 2 : 1;
		__u32 known_end = ba ? s->end_ba : s->end_ab;
		if (!(s->known & bit) || (__s32)(end - known_end) > 0) {
			flags |= 4;
			if (ba)
				s->end_ba = end;
			else
				s->end_ab = end;
			s->known |= bit;
			__u8 dir = ba ? 2 : 1;
			if (s->last_dir != 0 && s->last_dir != dir) {
				flags |= 2;
				prev = s->last_ns;
			}
			s->last_dir = dir;
			s->last_ns = now;
		}
	}
	__u8 sent = ba ? s->sent_ba : s->sent_ab;
	if (decided == 0 && sent < PAYLOAD_BUDGET) {
		if (ba)
			s->sent_ba = sent + 1;
		else
			s->sent_ab = sent + 1;
		__u32 one = 1;
		__u32 *snap = bpf_map_lookup_elem(&config, &one);
		__u32 n = skb->len;
		__u32 limit = snap ? *snap : 0;
		if (limit > FRAME_MAX)
			limit = FRAME_MAX;
		if (n > limit)
			n = limit;
		if (n > 0) {
			send_payload(skb, key, now, prev, wire, flags, n);
			return;
		}
	}
	if (flags & 2)
		send_payload(skb, key, now, prev, wire, flags, 0);
}

/*
 * Counts one packet, or on egress the segments a GSO packet becomes: TCP (and UDP with UDP_SEGMENT) hand the device
 * packets of up to 64 KiB that are cut into wire-sized segments after this hook, in software (where libpcap sees
 * the segments) or by the NIC. Each segment carries the same headers, so the frame bytes are
 * len + (segs - 1) * (headers up to the transport payload). On ingress a GRO-merged packet is one packet, as
 * libpcap sees it.
 */
static __always_inline int count(struct __sk_buff *skb, int egress)
{
	struct pkt p = {};
	int r = decode(skb, &p);
	if (r != 0) {
		bump(C_SEEN, 1);
		bump(r == 1 ? C_NOT_IP : C_MALFORMED, 1);
		return TC_ACT_UNSPEC;
	}
	__u32 segs = 1;
	__u32 gso = skb->gso_segs;
	if (egress && gso > 1 && p.hdr_end > p.l2_len && p.hdr_end < 0x10000)
		segs = gso;
	bump(C_SEEN, segs);
	__u32 zero = 0;
	__u32 *cfg = bpf_map_lookup_elem(&config, &zero);
	if (cfg && (*cfg & 1) && inside(p.src_hi, p.src_lo) == inside(p.dst_hi, p.dst_lo)) {
		bump(C_FILTERED, segs);
		return TC_ACT_UNSPEC;
	}
	struct flow_key key = { .proto = p.proto };
	int ba = !lower(&p);
	if (!ba) {
		key.a_hi = p.src_hi;
		key.a_lo = p.src_lo;
		key.b_hi = p.dst_hi;
		key.b_lo = p.dst_lo;
		key.a_port = p.sport;
		key.b_port = p.dport;
	} else {
		key.a_hi = p.dst_hi;
		key.a_lo = p.dst_lo;
		key.b_hi = p.src_hi;
		key.b_lo = p.src_lo;
		key.a_port = p.dport;
		key.b_port = p.sport;
	}
	void *map = bpf_map_lookup_elem(&flows, &zero);
	if (!map)
		return TC_ACT_UNSPEC;
	__u64 now = bpf_ktime_get_ns();
	__u64 frame = skb->len;
	__u64 ip_bytes = p.ip_bytes;
	if (segs > 1) {
		frame += (__u64)(segs - 1) * p.hdr_end;
		ip_bytes = frame - (__u64)segs * p.l2_len;
	}
	if (skb->vlan_present)
		frame += 4 * (__u64)segs;
	struct flow_val *v = bpf_map_lookup_elem(map, &key);
	if (!v) {
		struct flow_val fresh = { .first_ns = now, .last_ns = now, .first = p.flags | (ba ? 0x10000 : 0) };
		if (bpf_map_update_elem(map, &key, &fresh, BPF_NOEXIST) == 0)
			bump(C_CREATED, 1);
		v = bpf_map_lookup_elem(map, &key);
		if (!v) {
			bump(C_MAP_FULL, segs);
			struct overflow_rec *o = bpf_ringbuf_reserve(&overflow, sizeof(*o), 0);
			if (!o) {
				bump(C_LOST, segs);
				return TC_ACT_UNSPEC;
			}
			o->key = key;
			o->ts_ns = now;
			o->ip_bytes = ip_bytes;
			o->frame_bytes = frame;
			o->packets = segs;
			o->flags = p.flags;
			o->ba = ba;
			o->pad = 0;
			bpf_ringbuf_submit(o, 0);
			bump(C_COUNTED, segs);
			payload(skb, &key, &p, ba, now, frame);
			return TC_ACT_UNSPEC;
		}
	}
	if (!ba) {
		__sync_fetch_and_add(&v->ab_packets, segs);
		__sync_fetch_and_add(&v->ab_ip_bytes, ip_bytes);
		__sync_fetch_and_add(&v->ab_frame_bytes, frame);
		if (p.flags)
			__sync_fetch_and_or(&v->ab_flags, p.flags);
	} else {
		__sync_fetch_and_add(&v->ba_packets, segs);
		__sync_fetch_and_add(&v->ba_ip_bytes, ip_bytes);
		__sync_fetch_and_add(&v->ba_frame_bytes, frame);
		if (p.flags)
			__sync_fetch_and_or(&v->ba_flags, p.flags);
	}
	if (now > v->last_ns)
		v->last_ns = now;
	bump(C_COUNTED, segs);
	if (p.proto == IPPROTO_TCP && p.hdr_end != 0)
		data_rtt(v, &p, ba, now, segs, skb->gso_size);
	if (p.proto == IPPROTO_TCP && (p.flags & (TH_SYN | TH_ACK))) {
		handshake(&key, &p, ba, now, map);
		if ((p.flags & (TH_SYN | TH_ACK)) == TH_SYN) {
			/* a new connection on this 5-tuple: its payload is looked at afresh */
			bpf_map_delete_elem(&l7state, &key);
		}
	}
	payload(skb, &key, &p, ba, now, segs > 1 ? (__u32)skb->len : (__u32)frame);
	return TC_ACT_UNSPEC;
}

/* The two entry points (names at most 15 characters, what tc and bpftool show). */
SEC("tc")
int siteflow_in(struct __sk_buff *skb)
{
	return count(skb, 0);
}

SEC("tc")
int siteflow_out(struct __sk_buff *skb)
{
	return count(skb, 1);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
