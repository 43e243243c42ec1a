/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A minimal unit-test harness.  Each test is a function registered with
 * TEST(name); every ASSERT_* returns a bool and prints "file:line: FAIL ..."
 * with the actual and expected values.  main() (TEST_MAIN) runs every test
 * and prints one line per test: "PASS: <binary>/<name>" or
 * "FAIL: <binary>/<name>"; tests/run.sh counts those lines.
 */
#ifndef KTRACEB_TEST_H
#define KTRACEB_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct test_case {
	const char *name;
	void (*fn)(void);
};

extern int test_failed;

#define TEST(n)                                                                               \
	static void test_##n(void);                                                           \
	__attribute__((used, section("ktr_tests"))) static const struct test_case tc_##n = {  \
		#n, test_##n};                                                                \
	static void test_##n(void)

#define ASSERT_TRUE(c, tag)                                                                   \
	({                                                                                    \
		bool ok_ = (c);                                                               \
		if (!ok_) {                                                                   \
			fprintf(stderr, "%s:%d: FAIL %s: %s\n", __FILE__, __LINE__, tag, #c); \
			test_failed = 1;                                                      \
		}                                                                             \
		ok_;                                                                          \
	})

#define ASSERT_EQ(a, b, tag)                                                                  \
	({                                                                                    \
		long long a_ = (long long)(a), b_ = (long long)(b);                           \
		bool ok_ = a_ == b_;                                                          \
		if (!ok_) {                                                                   \
			fprintf(stderr, "%s:%d: FAIL %s: %s = %lld, expected %lld\n",         \
				__FILE__, __LINE__, tag, #a, a_, b_);                         \
			test_failed = 1;                                                      \
		}                                                                             \
		ok_;                                                                          \
	})

/*
 * got equals want?  Both must be strings, or, with null_is_value, may both
 * be NULL (a name that must not exist).  Says got and want when not.
 */
static inline bool test__streq(const char *got, const char *want, bool null_is_value,
			       const char *tag, const char *file, int line)
{
	bool ok = got && want ? strcmp(got, want) == 0 : null_is_value && got == want;

	if (!ok) {
		fprintf(stderr, "%s:%d: FAIL %s: got \"%s\", expected \"%s\"\n", file, line, tag,
			got ? got : "(null)", want ? want : "(null)");
		test_failed = 1;
	}
	return ok;
}

#define ASSERT_STREQ(a, b, tag)	     test__streq((a), (b), false, (tag), __FILE__, __LINE__)
/* ASSERT_STREQ where NULL is a value: a name that must not exist. */
#define ASSERT_STREQ_NULL(a, b, tag) test__streq((a), (b), true, (tag), __FILE__, __LINE__)

#define TEST_MAIN()                                                                           \
	int test_failed;                                                                      \
	extern const struct test_case __start_ktr_tests[], __stop_ktr_tests[];                \
	int main(int argc, char **argv)                                                       \
	{                                                                                     \
		const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0]; \
		int nfail = 0;                                                                \
		(void)argc;                                                                   \
		for (const struct test_case *t = __start_ktr_tests; t < __stop_ktr_tests; t++) { \
			test_failed = 0;                                                      \
			t->fn();                                                              \
			printf("%s: %s/%s\n", test_failed ? "FAIL" : "PASS", prog, t->name); \
			nfail += test_failed;                                                 \
		}                                                                             \
		return nfail ? 1 : 0;                                                         \
	}

#endif /* KTRACEB_TEST_H */
