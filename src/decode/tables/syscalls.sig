# kernel 6.18.44-fc-v657 (x86_64); regenerate with scripts/dump-syscall-sigs.sh
accept	3	int fd;struct sockaddr * upeer_sockaddr;int * upeer_addrlen
accept4	4	int fd;struct sockaddr * upeer_sockaddr;int * upeer_addrlen;int flags
access	2	const char * filename;int mode
acct	1	const char * name
add_key	5	const char * _type;const char * _description;const void * _payload;size_t plen;key_serial_t ringid
adjtimex	1	struct __kernel_timex * txc_p
alarm	1	unsigned int seconds
arch_prctl	2	int option;unsigned long arg2
bind	3	int fd;struct sockaddr * umyaddr;int addrlen
bpf	3	int cmd;union bpf_attr * uattr;unsigned int size
brk	1	unsigned long brk
cachestat	4	unsigned int fd;struct cachestat_range * cstat_range;struct cachestat * cstat;unsigned int flags
capget	2	cap_user_header_t header;cap_user_data_t dataptr
capset	2	cap_user_header_t header;const cap_user_data_t data
chdir	1	const char * filename
chmod	2	const char * filename;umode_t mode
chown	3	const char * filename;uid_t user;gid_t group
chroot	1	const char * filename
clock_adjtime	2	const clockid_t which_clock;struct __kernel_timex * utx
clock_getres	2	const clockid_t which_clock;struct __kernel_timespec * tp
clock_gettime	2	const clockid_t which_clock;struct __kernel_timespec * tp
clock_nanosleep	4	const clockid_t which_clock;int flags;const struct __kernel_timespec * rqtp;struct __kernel_timespec * rmtp
clock_settime	2	const clockid_t which_clock;const struct __kernel_timespec * tp
clone	5	unsigned long clone_flags;unsigned long newsp;int * parent_tidptr;int * child_tidptr;unsigned long tls
clone3	2	struct clone_args * uargs;size_t size
close	1	unsigned int fd
close_range	3	unsigned int fd;unsigned int max_fd;unsigned int flags
connect	3	int fd;struct sockaddr * uservaddr;int addrlen
copy_file_range	6	int fd_in;loff_t * off_in;int fd_out;loff_t * off_out;size_t len;unsigned int flags
creat	2	const char * pathname;umode_t mode
dup	1	unsigned int fildes
dup2	2	unsigned int oldfd;unsigned int newfd
dup3	3	unsigned int oldfd;unsigned int newfd;int flags
epoll_create	1	int size
epoll_create1	1	int flags
epoll_ctl	4	int epfd;int op;int fd;struct epoll_event * event
epoll_pwait	6	int epfd;struct epoll_event * events;int maxevents;int timeout;const sigset_t * sigmask;size_t sigsetsize
epoll_pwait2	6	int epfd;struct epoll_event * events;int maxevents;const struct __kernel_timespec * timeout;const sigset_t * sigmask;size_t sigsetsize
epoll_wait	4	int epfd;struct epoll_event * events;int maxevents;int timeout
eventfd	1	unsigned int count
eventfd2	2	unsigned int count;int flags
execve	3	const char * filename;const char *const * argv;const char *const * envp
execveat	5	int fd;const char * filename;const char *const * argv;const char *const * envp;int flags
exit	1	int error_code
exit_group	1	int error_code
faccessat	3	int dfd;const char * filename;int mode
faccessat2	4	int dfd;const char * filename;int mode;int flags
fadvise64	4	int fd;loff_t offset;size_t len;int advice
fallocate	4	int fd;int mode;loff_t offset;loff_t len
fanotify_init	2	unsigned int flags;unsigned int event_f_flags
fanotify_mark	5	int fanotify_fd;unsigned int flags;__u64 mask;int dfd;const char * pathname
fchdir	1	unsigned int fd
fchmod	2	unsigned int fd;umode_t mode
fchmodat	3	int dfd;const char * filename;umode_t mode
fchmodat2	4	int dfd;const char * filename;umode_t mode;unsigned int flags
fchown	3	unsigned int fd;uid_t user;gid_t group
fchownat	5	int dfd;const char * filename;uid_t user;gid_t group;int flag
fcntl	3	unsigned int fd;unsigned int cmd;unsigned long arg
fdatasync	1	unsigned int fd
fgetxattr	4	int fd;const char * name;void * value;size_t size
file_getattr	5	int dfd;const char * filename;struct file_attr * ufattr;size_t usize;unsigned int at_flags
file_setattr	5	int dfd;const char * filename;struct file_attr * ufattr;size_t usize;unsigned int at_flags
flistxattr	3	int fd;char * list;size_t size
flock	2	unsigned int fd;unsigned int cmd
fork	0	
fremovexattr	2	int fd;const char * name
fsconfig	5	int fd;unsigned int cmd;const char * _key;const void * _value;int aux
fsetxattr	5	int fd;const char * name;const void * value;size_t size;int flags
fsmount	3	int fs_fd;unsigned int flags;unsigned int attr_flags
fsopen	2	const char * _fs_name;unsigned int flags
fspick	3	int dfd;const char * path;unsigned int flags
fstatfs	2	unsigned int fd;struct statfs * buf
fsync	1	unsigned int fd
ftruncate	2	unsigned int fd;off_t length
futex	6	u32 * uaddr;int op;u32 val;const struct __kernel_timespec * utime;u32 * uaddr2;u32 val3
futex_requeue	4	struct futex_waitv * waiters;unsigned int flags;int nr_wake;int nr_requeue
futex_wait	6	void * uaddr;unsigned long val;unsigned long mask;unsigned int flags;struct __kernel_timespec * timeout;clockid_t clockid
futex_waitv	5	struct futex_waitv * waiters;unsigned int nr_futexes;unsigned int flags;struct __kernel_timespec * timeout;clockid_t clockid
futex_wake	4	void * uaddr;unsigned long mask;int nr;unsigned int flags
futimesat	3	int dfd;const char * filename;struct __kernel_old_timeval * utimes
get_mempolicy	5	int * policy;unsigned long * nmask;unsigned long maxnode;unsigned long addr;unsigned long flags
get_robust_list	3	int pid;struct robust_list_head * * head_ptr;size_t * len_ptr
getcpu	3	unsigned * cpup;unsigned * nodep;struct getcpu_cache * unused
getcwd	2	char * buf;unsigned long size
getdents	3	unsigned int fd;struct linux_dirent * dirent;unsigned int count
getdents64	3	unsigned int fd;struct linux_dirent64 * dirent;unsigned int count
getegid	0	
geteuid	0	
getgid	0	
getgroups	2	int gidsetsize;gid_t * grouplist
getitimer	2	int which;struct __kernel_old_itimerval * value
getpeername	3	int fd;struct sockaddr * usockaddr;int * usockaddr_len
getpgid	1	pid_t pid
getpgrp	0	
getpid	0	
getppid	0	
getpriority	2	int which;int who
getrandom	3	char * ubuf;size_t len;unsigned int flags
getresgid	3	gid_t * rgidp;gid_t * egidp;gid_t * sgidp
getresuid	3	uid_t * ruidp;uid_t * euidp;uid_t * suidp
getrlimit	2	unsigned int resource;struct rlimit * rlim
getrusage	2	int who;struct rusage * ru
getsid	1	pid_t pid
getsockname	3	int fd;struct sockaddr * usockaddr;int * usockaddr_len
getsockopt	5	int fd;int level;int optname;char * optval;int * optlen
gettid	0	
gettimeofday	2	struct __kernel_old_timeval * tv;struct timezone * tz
getuid	0	
getxattr	4	const char * pathname;const char * name;void * value;size_t size
getxattrat	6	int dfd;const char * pathname;unsigned int at_flags;const char * name;struct xattr_args * uargs;size_t usize
inotify_add_watch	3	int fd;const char * pathname;u32 mask
inotify_init	0	
inotify_init1	1	int flags
inotify_rm_watch	2	int fd;__s32 wd
io_cancel	3	aio_context_t ctx_id;struct iocb * iocb;struct io_event * result
io_destroy	1	aio_context_t ctx
io_getevents	5	aio_context_t ctx_id;long min_nr;long nr;struct io_event * events;struct __kernel_timespec * timeout
io_pgetevents	6	aio_context_t ctx_id;long min_nr;long nr;struct io_event * events;struct __kernel_timespec * timeout;const struct __aio_sigset * usig
io_setup	2	unsigned nr_events;aio_context_t * ctxp
io_submit	3	aio_context_t ctx_id;long nr;struct iocb * * iocbpp
io_uring_enter	6	unsigned int fd;u32 to_submit;u32 min_complete;u32 flags;const void * argp;size_t argsz
io_uring_register	4	unsigned int fd;unsigned int opcode;void * arg;unsigned int nr_args
io_uring_setup	2	u32 entries;struct io_uring_params * params
ioctl	3	unsigned int fd;unsigned int cmd;unsigned long arg
ioperm	3	unsigned long from;unsigned long num;int turn_on
iopl	1	unsigned int level
ioprio_get	2	int which;int who
ioprio_set	3	int which;int who;int ioprio
kcmp	5	pid_t pid1;pid_t pid2;int type;unsigned long idx1;unsigned long idx2
keyctl	5	int option;unsigned long arg2;unsigned long arg3;unsigned long arg4;unsigned long arg5
kill	2	pid_t pid;int sig
landlock_add_rule	4	const int ruleset_fd;const enum landlock_rule_type rule_type;const void *const rule_attr;const __u32 flags
landlock_create_ruleset	3	const struct landlock_ruleset_attr *const attr;const size_t size;const __u32 flags
landlock_restrict_self	2	const int ruleset_fd;const __u32 flags
lchown	3	const char * filename;uid_t user;gid_t group
lgetxattr	4	const char * pathname;const char * name;void * value;size_t size
link	2	const char * oldname;const char * newname
linkat	5	int olddfd;const char * oldname;int newdfd;const char * newname;int flags
listen	2	int fd;int backlog
listmount	4	const struct mnt_id_req * req;u64 * mnt_ids;size_t nr_mnt_ids;unsigned int flags
listxattr	3	const char * pathname;char * list;size_t size
listxattrat	5	int dfd;const char * pathname;unsigned int at_flags;char * list;size_t size
llistxattr	3	const char * pathname;char * list;size_t size
lremovexattr	2	const char * pathname;const char * name
lseek	3	unsigned int fd;off_t offset;unsigned int whence
lsetxattr	5	const char * pathname;const char * name;const void * value;size_t size;int flags
lsm_get_self_attr	4	unsigned int attr;struct lsm_ctx * ctx;u32 * size;u32 flags
lsm_list_modules	3	u64 * ids;u32 * size;u32 flags
lsm_set_self_attr	4	unsigned int attr;struct lsm_ctx * ctx;u32 size;u32 flags
madvise	3	unsigned long start;size_t len_in;int behavior
mbind	6	unsigned long start;unsigned long len;unsigned long mode;const unsigned long * nmask;unsigned long maxnode;unsigned int flags
membarrier	3	int cmd;unsigned int flags;int cpu_id
memfd_create	2	const char * uname;unsigned int flags
memfd_secret	1	unsigned int flags
migrate_pages	4	pid_t pid;unsigned long maxnode;const unsigned long * old_nodes;const unsigned long * new_nodes
mincore	3	unsigned long start;size_t len;unsigned char * vec
mkdir	2	const char * pathname;umode_t mode
mkdirat	3	int dfd;const char * pathname;umode_t mode
mknod	3	const char * filename;umode_t mode;unsigned dev
mknodat	4	int dfd;const char * filename;umode_t mode;unsigned int dev
mlock	2	unsigned long start;size_t len
mlock2	3	unsigned long start;size_t len;int flags
mlockall	1	int flags
mmap	6	unsigned long addr;unsigned long len;unsigned long prot;unsigned long flags;unsigned long fd;unsigned long off
modify_ldt	3	int func;void * ptr;unsigned long bytecount
mount	5	char * dev_name;char * dir_name;char * type;unsigned long flags;void * data
mount_setattr	5	int dfd;const char * path;unsigned int flags;struct mount_attr * uattr;size_t usize
move_mount	5	int from_dfd;const char * from_pathname;int to_dfd;const char * to_pathname;unsigned int flags
move_pages	6	pid_t pid;unsigned long nr_pages;const void * * pages;const int * nodes;int * status;int flags
mprotect	3	unsigned long start;size_t len;unsigned long prot
mq_getsetattr	3	mqd_t mqdes;const struct mq_attr * u_mqstat;struct mq_attr * u_omqstat
mq_notify	2	mqd_t mqdes;const struct sigevent * u_notification
mq_open	4	const char * u_name;int oflag;umode_t mode;struct mq_attr * u_attr
mq_timedreceive	5	mqd_t mqdes;char * u_msg_ptr;size_t msg_len;unsigned int * u_msg_prio;const struct __kernel_timespec * u_abs_timeout
mq_timedsend	5	mqd_t mqdes;const char * u_msg_ptr;size_t msg_len;unsigned int msg_prio;const struct __kernel_timespec * u_abs_timeout
mq_unlink	1	const char * u_name
mremap	5	unsigned long addr;unsigned long old_len;unsigned long new_len;unsigned long flags;unsigned long new_addr
mseal	3	unsigned long start;size_t len;unsigned long flags
msgctl	3	int msqid;int cmd;struct msqid_ds * buf
msgget	2	key_t key;int msgflg
msgrcv	5	int msqid;struct msgbuf * msgp;size_t msgsz;long msgtyp;int msgflg
msgsnd	4	int msqid;struct msgbuf * msgp;size_t msgsz;int msgflg
msync	3	unsigned long start;size_t len;int flags
munlock	2	unsigned long start;size_t len
munlockall	0	
munmap	2	unsigned long addr;size_t len
name_to_handle_at	5	int dfd;const char * name;struct file_handle * handle;void * mnt_id;int flag
nanosleep	2	struct __kernel_timespec * rqtp;struct __kernel_timespec * rmtp
newfstat	2	unsigned int fd;struct stat * statbuf
newfstatat	4	int dfd;const char * filename;struct stat * statbuf;int flag
newlstat	2	const char * filename;struct stat * statbuf
newstat	2	const char * filename;struct stat * statbuf
newuname	1	struct new_utsname * name
open	3	const char * filename;int flags;umode_t mode
open_by_handle_at	3	int mountdirfd;struct file_handle * handle;int flags
open_tree	3	int dfd;const char * filename;unsigned flags
open_tree_attr	5	int dfd;const char * filename;unsigned flags;struct mount_attr * uattr;size_t usize
openat	4	int dfd;const char * filename;int flags;umode_t mode
openat2	4	int dfd;const char * filename;struct open_how * how;size_t usize
pause	0	
perf_event_open	5	struct perf_event_attr * attr_uptr;pid_t pid;int cpu;int group_fd;unsigned long flags
personality	1	unsigned int personality
pidfd_getfd	3	int pidfd;int fd;unsigned int flags
pidfd_open	2	pid_t pid;unsigned int flags
pidfd_send_signal	4	int pidfd;int sig;siginfo_t * info;unsigned int flags
pipe	1	int * fildes
pipe2	2	int * fildes;int flags
pivot_root	2	const char * new_root;const char * put_old
pkey_alloc	2	unsigned long flags;unsigned long init_val
pkey_free	1	int pkey
pkey_mprotect	4	unsigned long start;size_t len;unsigned long prot;int pkey
poll	3	struct pollfd * ufds;unsigned int nfds;int timeout_msecs
ppoll	5	struct pollfd * ufds;unsigned int nfds;struct __kernel_timespec * tsp;const sigset_t * sigmask;size_t sigsetsize
prctl	5	int option;unsigned long arg2;unsigned long arg3;unsigned long arg4;unsigned long arg5
pread64	4	unsigned int fd;char * buf;size_t count;loff_t pos
preadv	5	unsigned long fd;const struct iovec * vec;unsigned long vlen;unsigned long pos_l;unsigned long pos_h
preadv2	6	unsigned long fd;const struct iovec * vec;unsigned long vlen;unsigned long pos_l;unsigned long pos_h;rwf_t flags
prlimit64	4	pid_t pid;unsigned int resource;const struct rlimit64 * new_rlim;struct rlimit64 * old_rlim
process_madvise	5	int pidfd;const struct iovec * vec;size_t vlen;int behavior;unsigned int flags
process_mrelease	2	int pidfd;unsigned int flags
process_vm_readv	6	pid_t pid;const struct iovec * lvec;unsigned long liovcnt;const struct iovec * rvec;unsigned long riovcnt;unsigned long flags
process_vm_writev	6	pid_t pid;const struct iovec * lvec;unsigned long liovcnt;const struct iovec * rvec;unsigned long riovcnt;unsigned long flags
pselect6	6	int n;fd_set * inp;fd_set * outp;fd_set * exp;struct __kernel_timespec * tsp;void * sig
ptrace	4	long request;long pid;unsigned long addr;unsigned long data
pwrite64	4	unsigned int fd;const char * buf;size_t count;loff_t pos
pwritev	5	unsigned long fd;const struct iovec * vec;unsigned long vlen;unsigned long pos_l;unsigned long pos_h
pwritev2	6	unsigned long fd;const struct iovec * vec;unsigned long vlen;unsigned long pos_l;unsigned long pos_h;rwf_t flags
quotactl	4	unsigned int cmd;const char * special;qid_t id;void * addr
quotactl_fd	4	unsigned int fd;unsigned int cmd;qid_t id;void * addr
read	3	unsigned int fd;char * buf;size_t count
readahead	3	int fd;loff_t offset;size_t count
readlink	3	const char * path;char * buf;int bufsiz
readlinkat	4	int dfd;const char * pathname;char * buf;int bufsiz
readv	3	unsigned long fd;const struct iovec * vec;unsigned long vlen
reboot	4	int magic1;int magic2;unsigned int cmd;void * arg
recvfrom	6	int fd;void * ubuf;size_t size;unsigned int flags;struct sockaddr * addr;int * addr_len
recvmmsg	5	int fd;struct mmsghdr * mmsg;unsigned int vlen;unsigned int flags;struct __kernel_timespec * timeout
recvmsg	3	int fd;struct user_msghdr * msg;unsigned int flags
remap_file_pages	5	unsigned long start;unsigned long size;unsigned long prot;unsigned long pgoff;unsigned long flags
removexattr	2	const char * pathname;const char * name
removexattrat	4	int dfd;const char * pathname;unsigned int at_flags;const char * name
rename	2	const char * oldname;const char * newname
renameat	4	int olddfd;const char * oldname;int newdfd;const char * newname
renameat2	5	int olddfd;const char * oldname;int newdfd;const char * newname;unsigned int flags
request_key	4	const char * _type;const char * _description;const char * _callout_info;key_serial_t destringid
restart_syscall	0	
rmdir	1	const char * pathname
rseq	4	struct rseq * rseq;u32 rseq_len;int flags;u32 sig
rt_sigaction	4	int sig;const struct sigaction * act;struct sigaction * oact;size_t sigsetsize
rt_sigpending	2	sigset_t * uset;size_t sigsetsize
rt_sigprocmask	4	int how;sigset_t * nset;sigset_t * oset;size_t sigsetsize
rt_sigqueueinfo	3	pid_t pid;int sig;siginfo_t * uinfo
rt_sigreturn	0	
rt_sigsuspend	2	sigset_t * unewset;size_t sigsetsize
rt_sigtimedwait	4	const sigset_t * uthese;siginfo_t * uinfo;const struct __kernel_timespec * uts;size_t sigsetsize
rt_tgsigqueueinfo	4	pid_t tgid;pid_t pid;int sig;siginfo_t * uinfo
sched_get_priority_max	1	int policy
sched_get_priority_min	1	int policy
sched_getaffinity	3	pid_t pid;unsigned int len;unsigned long * user_mask_ptr
sched_getattr	4	pid_t pid;struct sched_attr * uattr;unsigned int usize;unsigned int flags
sched_getparam	2	pid_t pid;struct sched_param * param
sched_getscheduler	1	pid_t pid
sched_rr_get_interval	2	pid_t pid;struct __kernel_timespec * interval
sched_setaffinity	3	pid_t pid;unsigned int len;unsigned long * user_mask_ptr
sched_setattr	3	pid_t pid;struct sched_attr * uattr;unsigned int flags
sched_setparam	2	pid_t pid;struct sched_param * param
sched_setscheduler	3	pid_t pid;int policy;struct sched_param * param
sched_yield	0	
seccomp	3	unsigned int op;unsigned int flags;void * uargs
select	5	int n;fd_set * inp;fd_set * outp;fd_set * exp;struct __kernel_old_timeval * tvp
semctl	4	int semid;int semnum;int cmd;unsigned long arg
semget	3	key_t key;int nsems;int semflg
semop	3	int semid;struct sembuf * tsops;unsigned nsops
semtimedop	4	int semid;struct sembuf * tsops;unsigned int nsops;const struct __kernel_timespec * timeout
sendfile64	4	int out_fd;int in_fd;loff_t * offset;size_t count
sendmmsg	4	int fd;struct mmsghdr * mmsg;unsigned int vlen;unsigned int flags
sendmsg	3	int fd;struct user_msghdr * msg;unsigned int flags
sendto	6	int fd;void * buff;size_t len;unsigned int flags;struct sockaddr * addr;int addr_len
set_mempolicy	3	int mode;const unsigned long * nmask;unsigned long maxnode
set_mempolicy_home_node	4	unsigned long start;unsigned long len;unsigned long home_node;unsigned long flags
set_robust_list	2	struct robust_list_head * head;size_t len
set_tid_address	1	int * tidptr
setdomainname	2	char * name;int len
setfsgid	1	gid_t gid
setfsuid	1	uid_t uid
setgid	1	gid_t gid
setgroups	2	int gidsetsize;gid_t * grouplist
sethostname	2	char * name;int len
setitimer	3	int which;struct __kernel_old_itimerval * value;struct __kernel_old_itimerval * ovalue
setns	2	int fd;int flags
setpgid	2	pid_t pid;pid_t pgid
setpriority	3	int which;int who;int niceval
setregid	2	gid_t rgid;gid_t egid
setresgid	3	gid_t rgid;gid_t egid;gid_t sgid
setresuid	3	uid_t ruid;uid_t euid;uid_t suid
setreuid	2	uid_t ruid;uid_t euid
setrlimit	2	unsigned int resource;struct rlimit * rlim
setsid	0	
setsockopt	5	int fd;int level;int optname;char * optval;int optlen
settimeofday	2	struct __kernel_old_timeval * tv;struct timezone * tz
setuid	1	uid_t uid
setxattr	5	const char * pathname;const char * name;const void * value;size_t size;int flags
setxattrat	6	int dfd;const char * pathname;unsigned int at_flags;const char * name;const struct xattr_args * uargs;size_t usize
shmat	3	int shmid;char * shmaddr;int shmflg
shmctl	3	int shmid;int cmd;struct shmid_ds * buf
shmdt	1	char * shmaddr
shmget	3	key_t key;size_t size;int shmflg
shutdown	2	int fd;int how
sigaltstack	2	const stack_t * uss;stack_t * uoss
signalfd	3	int ufd;sigset_t * user_mask;size_t sizemask
signalfd4	4	int ufd;sigset_t * user_mask;size_t sizemask;int flags
socket	3	int family;int type;int protocol
socketpair	4	int family;int type;int protocol;int * usockvec
splice	6	int fd_in;loff_t * off_in;int fd_out;loff_t * off_out;size_t len;unsigned int flags
statfs	2	const char * pathname;struct statfs * buf
statmount	4	const struct mnt_id_req * req;struct statmount * buf;size_t bufsize;unsigned int flags
statx	5	int dfd;const char * filename;unsigned flags;unsigned int mask;struct statx * buffer
swapoff	1	const char * specialfile
swapon	2	const char * specialfile;int swap_flags
symlink	2	const char * oldname;const char * newname
symlinkat	3	const char * oldname;int newdfd;const char * newname
sync	0	
sync_file_range	4	int fd;loff_t offset;loff_t nbytes;unsigned int flags
syncfs	1	int fd
sysfs	3	int option;unsigned long arg1;unsigned long arg2
sysinfo	1	struct sysinfo * info
syslog	3	int type;char * buf;int len
tee	4	int fdin;int fdout;size_t len;unsigned int flags
tgkill	3	pid_t tgid;pid_t pid;int sig
time	1	__kernel_old_time_t * tloc
timer_create	3	const clockid_t which_clock;struct sigevent * timer_event_spec;timer_t * created_timer_id
timer_delete	1	timer_t timer_id
timer_getoverrun	1	timer_t timer_id
timer_gettime	2	timer_t timer_id;struct __kernel_itimerspec * setting
timer_settime	4	timer_t timer_id;int flags;const struct __kernel_itimerspec * new_setting;struct __kernel_itimerspec * old_setting
timerfd_create	2	int clockid;int flags
timerfd_gettime	2	int ufd;struct __kernel_itimerspec * otmr
timerfd_settime	4	int ufd;int flags;const struct __kernel_itimerspec * utmr;struct __kernel_itimerspec * otmr
times	1	struct tms * tbuf
tkill	2	pid_t pid;int sig
truncate	2	const char * path;long length
umask	1	int mask
umount	2	char * name;int flags
unlink	1	const char * pathname
unlinkat	3	int dfd;const char * pathname;int flag
unshare	1	unsigned long unshare_flags
uprobe	0	
uretprobe	0	
userfaultfd	1	int flags
ustat	2	unsigned dev;struct ustat * ubuf
utime	2	char * filename;struct utimbuf * times
utimensat	4	int dfd;const char * filename;struct __kernel_timespec * utimes;int flags
utimes	2	char * filename;struct __kernel_old_timeval * utimes
vfork	0	
vhangup	0	
vmsplice	4	int fd;const struct iovec * uiov;unsigned long nr_segs;unsigned int flags
wait4	4	pid_t upid;int * stat_addr;int options;struct rusage * ru
waitid	5	int which;pid_t upid;struct siginfo * infop;int options;struct rusage * ru
write	3	unsigned int fd;const char * buf;size_t count
writev	3	unsigned long fd;const struct iovec * vec;unsigned long vlen
