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
	{ 284, "SOL_MPTCP" }, { 285, "SOL_MCTP" },    { 281, "SOL_KCM" },
};
static const struct ktr_symtab level_tab = KTR_SYMTAB(level_sym);

static void arg_level(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &level_tab, (int)c->a[i], c->flags);
}

/*
 * The option's names depend on the level: each level's from its header
 * (src/decode/tables/consts.spec, the generated consts.c).
 */
static void arg_optname(FILE *out, const struct ktr_argctx *c, int i)
{
	static const struct {
		int level;
		const struct ktr_symtab *t;
	} levels[] = {
		{ SOL_SOCKET, &ktr_gen_so_socket },
		{ SOL_IP, &ktr_gen_so_ip },
		{ SOL_IPV6, &ktr_gen_so_ipv6 },
		{ SOL_TCP, &ktr_gen_so_tcp },
		{ SOL_UDP, &ktr_gen_so_udp },
		{ SOL_PACKET, &ktr_gen_so_packet },
		{ SOL_NETLINK, &ktr_gen_so_netlink },
		{ SOL_ALG, &ktr_gen_so_alg },
		{ SOL_TLS, &ktr_gen_so_tls },
		{ SOL_RAW, &ktr_gen_so_raw },
		{ SOL_ICMPV6, &ktr_gen_so_icmpv6 },
		{ 283 /* SOL_XDP */, &ktr_gen_so_xdp },
		{ 284 /* SOL_MPTCP */, &ktr_gen_so_mptcp },
		{ 281 /* SOL_KCM */, &ktr_gen_so_kcm },
	};
	int v = (int)c->a[i];

	for (size_t l = 0; l < KTR_NELEM(levels); l++)
		if ((int)c->a[1] == levels[l].level) {
			ktr_print_enum(out, levels[l].t, v, c->flags);
			return;
		}
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
