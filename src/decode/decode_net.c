// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* Socket syscalls: families, types, protocols, socket options, MSG_ flags. */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <linux/netlink.h>
#include "decode_int.h"

static const struct ktr_sym af_sym[] = {
	KTR_SYM(AF_UNSPEC),	KTR_SYM(AF_UNIX),      KTR_SYM(AF_INET),     KTR_SYM(AF_AX25),
	KTR_SYM(AF_IPX),	KTR_SYM(AF_APPLETALK), KTR_SYM(AF_NETROM),   KTR_SYM(AF_BRIDGE),
	KTR_SYM(AF_ATMPVC),	KTR_SYM(AF_X25),       KTR_SYM(AF_INET6),    KTR_SYM(AF_ROSE),
	KTR_SYM(AF_DECnet),	KTR_SYM(AF_NETBEUI),   KTR_SYM(AF_SECURITY), KTR_SYM(AF_KEY),
	KTR_SYM(AF_NETLINK),	KTR_SYM(AF_PACKET),    KTR_SYM(AF_ASH),	     KTR_SYM(AF_ECONET),
	KTR_SYM(AF_ATMSVC),	KTR_SYM(AF_RDS),       KTR_SYM(AF_SNA),	     KTR_SYM(AF_IRDA),
	KTR_SYM(AF_PPPOX),	KTR_SYM(AF_WANPIPE),   KTR_SYM(AF_LLC),	     KTR_SYM(AF_IB),
	KTR_SYM(AF_MPLS),	KTR_SYM(AF_CAN),       KTR_SYM(AF_TIPC),     KTR_SYM(AF_BLUETOOTH),
	KTR_SYM(AF_IUCV),	KTR_SYM(AF_RXRPC),     KTR_SYM(AF_ISDN),     KTR_SYM(AF_PHONET),
	KTR_SYM(AF_IEEE802154), KTR_SYM(AF_CAIF),      KTR_SYM(AF_ALG),	     KTR_SYM(AF_NFC),
	KTR_SYM(AF_VSOCK),	KTR_SYM(AF_KCM),       KTR_SYM(AF_QIPCRTR),  KTR_SYM(AF_SMC),
	KTR_SYM(AF_XDP),	KTR_SYM(AF_MCTP),
};
const struct ktr_symtab ktr_af_tab = KTR_SYMTAB(af_sym);

static const struct ktr_sym socktype_sym[] = {
	KTR_SYM(SOCK_STREAM),	 KTR_SYM(SOCK_DGRAM), KTR_SYM(SOCK_RAW),    KTR_SYM(SOCK_RDM),
	KTR_SYM(SOCK_SEQPACKET), KTR_SYM(SOCK_DCCP),  KTR_SYM(SOCK_PACKET),
};
static const struct ktr_symtab socktype_tab = KTR_SYMTAB(socktype_sym);

static const struct ktr_sym sockflags_sym[] = {
	KTR_SYM(SOCK_NONBLOCK),
	KTR_SYM(SOCK_CLOEXEC),
};
static const struct ktr_symtab sockflags_tab = KTR_SYMTAB(sockflags_sym);

static const struct ktr_sym ipproto_sym[] = {
	KTR_SYM(IPPROTO_IP),	  KTR_SYM(IPPROTO_ICMP),    KTR_SYM(IPPROTO_IGMP),
	KTR_SYM(IPPROTO_IPIP),	  KTR_SYM(IPPROTO_TCP),	    KTR_SYM(IPPROTO_EGP),
	KTR_SYM(IPPROTO_PUP),	  KTR_SYM(IPPROTO_UDP),	    KTR_SYM(IPPROTO_IDP),
	KTR_SYM(IPPROTO_TP),	  KTR_SYM(IPPROTO_DCCP),    KTR_SYM(IPPROTO_IPV6),
	KTR_SYM(IPPROTO_RSVP),	  KTR_SYM(IPPROTO_GRE),	    KTR_SYM(IPPROTO_ESP),
	KTR_SYM(IPPROTO_AH),	  KTR_SYM(IPPROTO_ICMPV6),  KTR_SYM(IPPROTO_MTP),
	KTR_SYM(IPPROTO_BEETPH),  KTR_SYM(IPPROTO_ENCAP),   KTR_SYM(IPPROTO_PIM),
	KTR_SYM(IPPROTO_COMP),	  { 115, "IPPROTO_L2TP" },  KTR_SYM(IPPROTO_SCTP),
	KTR_SYM(IPPROTO_UDPLITE), KTR_SYM(IPPROTO_MPLS),    { 143, "IPPROTO_ETHERNET" },
	KTR_SYM(IPPROTO_RAW),	  { 262, "IPPROTO_MPTCP" },
};
static const struct ktr_symtab ipproto_tab = KTR_SYMTAB(ipproto_sym);

static const struct ktr_sym netlink_sym[] = {
	KTR_SYM(NETLINK_ROUTE),
	KTR_SYM(NETLINK_USERSOCK),
	KTR_SYM(NETLINK_FIREWALL),
	KTR_SYM(NETLINK_SOCK_DIAG),
	KTR_SYM(NETLINK_NFLOG),
	KTR_SYM(NETLINK_XFRM),
	KTR_SYM(NETLINK_SELINUX),
	KTR_SYM(NETLINK_ISCSI),
	KTR_SYM(NETLINK_AUDIT),
	KTR_SYM(NETLINK_FIB_LOOKUP),
	KTR_SYM(NETLINK_CONNECTOR),
	KTR_SYM(NETLINK_NETFILTER),
	KTR_SYM(NETLINK_IP6_FW),
	KTR_SYM(NETLINK_DNRTMSG),
	KTR_SYM(NETLINK_KOBJECT_UEVENT),
	KTR_SYM(NETLINK_GENERIC),
	KTR_SYM(NETLINK_SCSITRANSPORT),
	KTR_SYM(NETLINK_ECRYPTFS),
	KTR_SYM(NETLINK_RDMA),
	KTR_SYM(NETLINK_CRYPTO),
	KTR_SYM(NETLINK_SMC),
};
static const struct ktr_symtab netlink_tab = KTR_SYMTAB(netlink_sym);

static void arg_family(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &ktr_af_tab, (int)c->a[i], c->flags);
}

static void arg_socktype(FILE *out, const struct ktr_argctx *c, int i)
{
	unsigned int v = (unsigned int)c->a[i];
	const char *type = ktr_sym_name(&socktype_tab, v & 0xf);

	if ((c->flags & KTR_DEC_RAW) || !type) {
		ktr_print_num(out, v, c->flags);
		return;
	}
	fputs(type, out);
	ktr_print_mask_cont(out, &sockflags_tab, v & ~0xfu, 1);
}

static void arg_sockflags(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &sockflags_tab, c->a[i] & 0xffffffffu, c->flags);
}

/* The protocol's namespace depends on the family. */
static void arg_protocol(FILE *out, const struct ktr_argctx *c, int i)
{
	int family = (int)c->a[0], v = (int)c->a[i];

	if (family == AF_INET || family == AF_INET6)
		ktr_print_enum(out, &ipproto_tab, v, c->flags);
	else if (family == AF_NETLINK)
		ktr_print_enum(out, &netlink_tab, v, c->flags);
	else
		ktr_print_num(out, (__u64)(__s64)v, c->flags);
}

static const struct ktr_sym level_sym[] = {
	KTR_SYM(SOL_SOCKET),  KTR_SYM(SOL_IP),	      KTR_SYM(SOL_TCP),	    KTR_SYM(SOL_UDP),
	KTR_SYM(SOL_IPV6),    KTR_SYM(SOL_ICMPV6),    { 132, "SOL_SCTP" },  { 136, "SOL_UDPLITE" },
	KTR_SYM(SOL_RAW),     KTR_SYM(SOL_PACKET),    KTR_SYM(SOL_NETLINK), KTR_SYM(SOL_ALG),
	KTR_SYM(SOL_TIPC),    KTR_SYM(SOL_BLUETOOTH), KTR_SYM(SOL_TLS),	    { 283, "SOL_XDP" },
	{ 284, "SOL_MPTCP" }, { 285, "SOL_MCTP" },
};
static const struct ktr_symtab level_tab = KTR_SYMTAB(level_sym);

/* include/uapi/asm-generic/socket.h: x86_64 uses the generic numbers */
static const struct ktr_sym so_sym[] = {
	{ 1, "SO_DEBUG" },
	{ 2, "SO_REUSEADDR" },
	{ 3, "SO_TYPE" },
	{ 4, "SO_ERROR" },
	{ 5, "SO_DONTROUTE" },
	{ 6, "SO_BROADCAST" },
	{ 7, "SO_SNDBUF" },
	{ 8, "SO_RCVBUF" },
	{ 9, "SO_KEEPALIVE" },
	{ 10, "SO_OOBINLINE" },
	{ 11, "SO_NO_CHECK" },
	{ 12, "SO_PRIORITY" },
	{ 13, "SO_LINGER" },
	{ 14, "SO_BSDCOMPAT" },
	{ 15, "SO_REUSEPORT" },
	{ 16, "SO_PASSCRED" },
	{ 17, "SO_PEERCRED" },
	{ 18, "SO_RCVLOWAT" },
	{ 19, "SO_SNDLOWAT" },
	{ 20, "SO_RCVTIMEO_OLD" },
	{ 21, "SO_SNDTIMEO_OLD" },
	{ 22, "SO_SECURITY_AUTHENTICATION" },
	{ 23, "SO_SECURITY_ENCRYPTION_TRANSPORT" },
	{ 24, "SO_SECURITY_ENCRYPTION_NETWORK" },
	{ 25, "SO_BINDTODEVICE" },
	{ 26, "SO_ATTACH_FILTER" },
	{ 27, "SO_DETACH_FILTER" },
	{ 28, "SO_PEERNAME" },
	{ 29, "SO_TIMESTAMP_OLD" },
	{ 30, "SO_ACCEPTCONN" },
	{ 31, "SO_PEERSEC" },
	{ 32, "SO_SNDBUFFORCE" },
	{ 33, "SO_RCVBUFFORCE" },
	{ 34, "SO_PASSSEC" },
	{ 35, "SO_TIMESTAMPNS_OLD" },
	{ 36, "SO_MARK" },
	{ 37, "SO_TIMESTAMPING_OLD" },
	{ 38, "SO_PROTOCOL" },
	{ 39, "SO_DOMAIN" },
	{ 40, "SO_RXQ_OVFL" },
	{ 41, "SO_WIFI_STATUS" },
	{ 42, "SO_PEEK_OFF" },
	{ 43, "SO_NOFCS" },
	{ 44, "SO_LOCK_FILTER" },
	{ 45, "SO_SELECT_ERR_QUEUE" },
	{ 46, "SO_BUSY_POLL" },
	{ 47, "SO_MAX_PACING_RATE" },
	{ 48, "SO_BPF_EXTENSIONS" },
	{ 49, "SO_INCOMING_CPU" },
	{ 50, "SO_ATTACH_BPF" },
	{ 51, "SO_ATTACH_REUSEPORT_CBPF" },
	{ 52, "SO_ATTACH_REUSEPORT_EBPF" },
	{ 53, "SO_CNX_ADVICE" },
	{ 54, "SCM_TIMESTAMPING_OPT_STATS" },
	{ 55, "SO_MEMINFO" },
	{ 56, "SO_INCOMING_NAPI_ID" },
	{ 57, "SO_COOKIE" },
	{ 58, "SCM_TIMESTAMPING_PKTINFO" },
	{ 59, "SO_PEERGROUPS" },
	{ 60, "SO_ZEROCOPY" },
	{ 61, "SO_TXTIME" },
	{ 62, "SO_BINDTOIFINDEX" },
	{ 63, "SO_TIMESTAMP_NEW" },
	{ 64, "SO_TIMESTAMPNS_NEW" },
	{ 65, "SO_TIMESTAMPING_NEW" },
	{ 66, "SO_RCVTIMEO_NEW" },
	{ 67, "SO_SNDTIMEO_NEW" },
	{ 68, "SO_DETACH_REUSEPORT_BPF" },
	{ 69, "SO_PREFER_BUSY_POLL" },
	{ 70, "SO_BUSY_POLL_BUDGET" },
	{ 71, "SO_NETNS_COOKIE" },
	{ 72, "SO_BUF_LOCK" },
	{ 73, "SO_RESERVE_MEM" },
	{ 74, "SO_TXREHASH" },
	{ 75, "SO_RCVMARK" },
	{ 76, "SO_PASSPIDFD" },
	{ 77, "SO_PEERPIDFD" },
};
static const struct ktr_symtab so_tab = KTR_SYMTAB(so_sym);

static const struct ktr_sym tcp_sym[] = {
	KTR_SYM(TCP_NODELAY),
	KTR_SYM(TCP_MAXSEG),
	KTR_SYM(TCP_CORK),
	KTR_SYM(TCP_KEEPIDLE),
	KTR_SYM(TCP_KEEPINTVL),
	KTR_SYM(TCP_KEEPCNT),
	KTR_SYM(TCP_SYNCNT),
	KTR_SYM(TCP_LINGER2),
	KTR_SYM(TCP_DEFER_ACCEPT),
	KTR_SYM(TCP_WINDOW_CLAMP),
	KTR_SYM(TCP_INFO),
	KTR_SYM(TCP_QUICKACK),
	KTR_SYM(TCP_CONGESTION),
	KTR_SYM(TCP_MD5SIG),
	KTR_SYM(TCP_THIN_LINEAR_TIMEOUTS),
	KTR_SYM(TCP_THIN_DUPACK),
	KTR_SYM(TCP_USER_TIMEOUT),
	KTR_SYM(TCP_REPAIR),
	KTR_SYM(TCP_REPAIR_QUEUE),
	KTR_SYM(TCP_QUEUE_SEQ),
	KTR_SYM(TCP_REPAIR_OPTIONS),
	KTR_SYM(TCP_FASTOPEN),
	KTR_SYM(TCP_TIMESTAMP),
	KTR_SYM(TCP_NOTSENT_LOWAT),
	KTR_SYM(TCP_CC_INFO),
	KTR_SYM(TCP_SAVE_SYN),
	KTR_SYM(TCP_SAVED_SYN),
	KTR_SYM(TCP_REPAIR_WINDOW),
	KTR_SYM(TCP_FASTOPEN_CONNECT),
	KTR_SYM(TCP_ULP),
	KTR_SYM(TCP_MD5SIG_EXT),
	KTR_SYM(TCP_FASTOPEN_KEY),
	KTR_SYM(TCP_FASTOPEN_NO_COOKIE),
	KTR_SYM(TCP_ZEROCOPY_RECEIVE),
	KTR_SYM(TCP_INQ),
	KTR_SYM(TCP_TX_DELAY),
};
static const struct ktr_symtab tcp_tab = KTR_SYMTAB(tcp_sym);

static const struct ktr_sym ip_sym[] = {
	KTR_SYM(IP_TOS),
	KTR_SYM(IP_TTL),
	KTR_SYM(IP_HDRINCL),
	KTR_SYM(IP_OPTIONS),
	KTR_SYM(IP_RECVOPTS),
	KTR_SYM(IP_RETOPTS),
	KTR_SYM(IP_PKTINFO),
	KTR_SYM(IP_PKTOPTIONS),
	KTR_SYM(IP_MTU_DISCOVER),
	KTR_SYM(IP_RECVERR),
	KTR_SYM(IP_RECVTTL),
	KTR_SYM(IP_RECVTOS),
	KTR_SYM(IP_MTU),
	KTR_SYM(IP_FREEBIND),
	KTR_SYM(IP_PASSSEC),
	KTR_SYM(IP_TRANSPARENT),
	KTR_SYM(IP_RECVORIGDSTADDR),
	KTR_SYM(IP_MINTTL),
	KTR_SYM(IP_NODEFRAG),
	KTR_SYM(IP_CHECKSUM),
	KTR_SYM(IP_BIND_ADDRESS_NO_PORT),
	KTR_SYM(IP_RECVFRAGSIZE),
	KTR_SYM(IP_MULTICAST_IF),
	KTR_SYM(IP_MULTICAST_TTL),
	KTR_SYM(IP_MULTICAST_LOOP),
	KTR_SYM(IP_ADD_MEMBERSHIP),
	KTR_SYM(IP_DROP_MEMBERSHIP),
	KTR_SYM(IP_MULTICAST_ALL),
};
static const struct ktr_symtab ip_tab = KTR_SYMTAB(ip_sym);

static const struct ktr_sym ipv6_sym[] = {
	KTR_SYM(IPV6_ADDRFORM),
	KTR_SYM(IPV6_2292PKTINFO),
	KTR_SYM(IPV6_UNICAST_HOPS),
	KTR_SYM(IPV6_MULTICAST_IF),
	KTR_SYM(IPV6_MULTICAST_HOPS),
	KTR_SYM(IPV6_MULTICAST_LOOP),
	KTR_SYM(IPV6_ADD_MEMBERSHIP),
	KTR_SYM(IPV6_DROP_MEMBERSHIP),
	KTR_SYM(IPV6_ROUTER_ALERT),
	KTR_SYM(IPV6_MTU_DISCOVER),
	KTR_SYM(IPV6_MTU),
	KTR_SYM(IPV6_RECVERR),
	KTR_SYM(IPV6_V6ONLY),
	KTR_SYM(IPV6_RECVPKTINFO),
	KTR_SYM(IPV6_PKTINFO),
	KTR_SYM(IPV6_RECVHOPLIMIT),
	KTR_SYM(IPV6_HOPLIMIT),
	KTR_SYM(IPV6_RECVTCLASS),
	KTR_SYM(IPV6_TCLASS),
	KTR_SYM(IPV6_FREEBIND),
	KTR_SYM(IPV6_TRANSPARENT),
};
static const struct ktr_symtab ipv6_tab = KTR_SYMTAB(ipv6_sym);

static void arg_level(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &level_tab, (int)c->a[i], c->flags);
}

/* The option's namespace depends on the level. */
static void arg_optname(FILE *out, const struct ktr_argctx *c, int i)
{
	const struct ktr_symtab *t = NULL;
	int v = (int)c->a[i];

	switch ((int)c->a[1]) {
	case SOL_SOCKET:
		t = &so_tab;
		break;
	case SOL_TCP:
		t = &tcp_tab;
		break;
	case SOL_IP:
		t = &ip_tab;
		break;
	case SOL_IPV6:
		t = &ipv6_tab;
		break;
	}
	if (t)
		ktr_print_enum(out, t, v, c->flags);
	else
		ktr_print_num(out, (__u64)(__s64)v, c->flags);
}

static const struct ktr_sym msg_sym[] = {
	KTR_SYM(MSG_OOB),
	KTR_SYM(MSG_PEEK),
	KTR_SYM(MSG_DONTROUTE),
	KTR_SYM(MSG_CTRUNC),
	KTR_SYM(MSG_PROXY),
	KTR_SYM(MSG_TRUNC),
	KTR_SYM(MSG_DONTWAIT),
	KTR_SYM(MSG_EOR),
	KTR_SYM(MSG_WAITALL),
	KTR_SYM(MSG_FIN),
	KTR_SYM(MSG_SYN),
	KTR_SYM(MSG_CONFIRM),
	KTR_SYM(MSG_RST),
	KTR_SYM(MSG_ERRQUEUE),
	KTR_SYM(MSG_NOSIGNAL),
	KTR_SYM(MSG_MORE),
	KTR_SYM(MSG_WAITFORONE),
	KTR_SYM(MSG_BATCH),
	{ 0x2000000, "MSG_SOCK_DEVMEM" },
	KTR_SYM(MSG_ZEROCOPY),
	KTR_SYM(MSG_FASTOPEN),
	KTR_SYM(MSG_CMSG_CLOEXEC),
};
const struct ktr_symtab ktr_msg_flags_tab = KTR_SYMTAB(msg_sym);

static void arg_msgflags(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &ktr_msg_flags_tab, c->a[i] & 0xffffffffu, c->flags);
}

static const struct ktr_sym shut_sym[] = {
	KTR_SYM(SHUT_RD),
	KTR_SYM(SHUT_WR),
	KTR_SYM(SHUT_RDWR),
};
static const struct ktr_symtab shut_tab = KTR_SYMTAB(shut_sym);

static void arg_shut(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &shut_tab, (int)c->a[i], c->flags);
}

#define F ktr_arg_fd
#define H ktr_arg_hex

/* Sorted by name. */
const struct ktr_scdec ktr_scdec_net[] = {
	{ KTR_SC(accept4), { F, H, H, arg_sockflags }, NULL },
	{ KTR_SC(getsockopt), { F, arg_level, arg_optname, H, H }, NULL },
	{ KTR_SC(recvfrom), { F, H, NULL, arg_msgflags, H, H }, NULL },
	{ KTR_SC(recvmmsg), { F, H, NULL, arg_msgflags, H }, NULL },
	{ KTR_SC(recvmmsg_time64), { F, H, NULL, arg_msgflags, H }, NULL },
	{ KTR_SC(recvmsg), { F, H, arg_msgflags }, NULL },
	{ KTR_SC(sendmmsg), { F, H, NULL, arg_msgflags }, NULL },
	{ KTR_SC(sendmsg), { F, H, arg_msgflags }, NULL },
	{ KTR_SC(sendto), { F, H, NULL, arg_msgflags, H, NULL }, NULL },
	{ KTR_SC(setsockopt), { F, arg_level, arg_optname, H, NULL }, NULL },
	{ KTR_SC(shutdown), { F, arg_shut }, NULL },
	{ KTR_SC(socket), { arg_family, arg_socktype, arg_protocol }, NULL },
	{ KTR_SC(socketpair), { arg_family, arg_socktype, arg_protocol, H }, NULL },
};
const size_t ktr_nscdec_net = KTR_NELEM(ktr_scdec_net);
