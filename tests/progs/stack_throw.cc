// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * stack_throw PATH: a call made while a C++ exception unwinds, for t_unwind
 * (ktraceb -k), built as Debian builds (-O2 -g, no frame pointers):
 * cfg::Loader::load() throws; as the exception leaves it, the destructor of
 * its cfg::Journal runs (in load's landing pad, the code the unwinder jumps
 * to) and calls cfg::Journal::flush(char const*), which opens PATH; main
 * catches.  kdump must show the names demangled and the whole stack
 * through the landing pad.  It prints "LINE flush N", "LINE dtor N".
 */
#include <cstdio>
#include <fcntl.h>
#include <stdexcept>
#include <unistd.h>

namespace cfg
{

static volatile int line_flush, line_dtor;

class Journal {
    public:
	explicit Journal(const char *path)
		: path_(path)
	{
	}
	__attribute__((noinline)) ~Journal();
	__attribute__((noinline)) static int flush(const char *path);

    private:
	const char *path_;
};

int Journal::flush(const char *path)
{
	line_flush = __LINE__ + 1;
	int fd = open(path, O_RDONLY);
	__asm__ volatile("" : "+r"(fd));
	if (fd >= 0)
		close(fd);
	return fd;
}

Journal::~Journal()
{
	line_dtor = __LINE__ + 1;
	int r = flush(path_);
	__asm__ volatile("" : "+r"(r));
}

class Loader {
    public:
	__attribute__((noinline)) static void load(const char *path);
};

void Loader::load(const char *path)
{
	Journal j(path);

	if (path[0])
		throw std::runtime_error("no configuration");
}

} // namespace cfg

int main(int argc, char **argv)
{
	if (argc != 2) {
		std::fprintf(stderr, "usage: stack_throw PATH\n");
		return 2;
	}
	try {
		cfg::Loader::load(argv[1]);
	} catch (const std::exception &e) {
		std::printf("caught: %s\n", e.what());
	}
	std::printf("LINE flush %d\nLINE dtor %d\n", cfg::line_flush, cfg::line_dtor);
	return 0;
}
