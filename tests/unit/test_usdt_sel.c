// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The USDT selection (ktr_usdt_sel.c): -e usdt: patterns as the command
 * adds them, their text as the daemon parses it (a client's input), which
 * probes a selection arms, and which of those fire at high rates.
 */
#include <string.h>

#include "../lib/test.h"
#include "common/ktr_usdt_sel.h"

/* text after adding each spec in turn; NULL if one was refused (why in *why) */
static const char *add_all(char *text, size_t size, const char *const *specs, const char **why)
{
	text[0] = '\0';
	for (; *specs; specs++)
		if (ktr_usdt_sel__add(text, size, *specs, why) < 0)
			return NULL;
	return text;
}

static bool arms(const char *text, const char *provider, const char *name)
{
	struct ktr_usdt_sel sel;
	const char *why;

	if (ktr_usdt_sel__parse(&sel, text, &why) < 0)
		return false;
	return ktr_usdt_sel__match(&sel, provider, name);
}

static bool parses(const char *text)
{
	struct ktr_usdt_sel sel;
	const char *why;

	return ktr_usdt_sel__parse(&sel, text, &why) == 0;
}

TEST(add_canonical)
{
	char text[KTR_USDT_SEL_TEXT];
	const char *why = NULL;
	const char *specs[] = { "python:function__entry", "node", "*", "*:gc__*", NULL };

	ASSERT_STREQ(add_all(text, sizeof(text), specs, &why),
		     "python:function__entry node:* *:* *:gc__*", "bare provider is provider:*");
}

TEST(add_refused)
{
	static const char *const bad[] = { "",	   ":x",    "x:",      "a:b:c", "py thon",
					   "py/x", "x:y.z", "x:$(id)", NULL };
	char text[KTR_USDT_SEL_TEXT];
	char longname[80];

	for (int i = 0; bad[i]; i++) {
		const char *specs[] = { bad[i], NULL };
		const char *why = NULL;

		ASSERT_TRUE(add_all(text, sizeof(text), specs, &why) == NULL, bad[i]);
		ASSERT_TRUE(why && *why && !strchr(why, '\n'), "one line why");
	}
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	{
		const char *specs[] = { longname, NULL }, *why;

		ASSERT_TRUE(add_all(text, sizeof(text), specs, &why) == NULL, "64+ characters");
	}
}

TEST(add_bounded)
{
	char text[KTR_USDT_SEL_TEXT] = "";
	const char *why;
	int i;

	for (i = 0; i < 40; i++)
		if (ktr_usdt_sel__add(text, sizeof(text), "p:n", &why) < 0)
			break;
	ASSERT_EQ(i, KTR_USDT_SEL_MAX, "at most 16 patterns");
	ASSERT_TRUE(strstr(why, "16") != NULL, "said how many");
	text[0] = '\0';
	for (i = 0; i < 16; i++)
		if (ktr_usdt_sel__add(text, sizeof(text),
				      "abcdefghijklmnopqrstuvwxyz:abcdefghijklmnopqrstuvwxyz",
				      &why) < 0)
			break;
	ASSERT_TRUE(i < 16, "383 characters in all");
	ASSERT_TRUE(strlen(text) < KTR_USDT_SEL_TEXT, "text kept whole");
	ASSERT_TRUE(parses(text), "what was kept still parses");
}

TEST(parse_hostile)
{
	char big[KTR_USDT_SEL_TEXT + 8];

	ASSERT_TRUE(parses(""), "empty: nothing given");
	ASSERT_TRUE(parses("a:b c:d"), "two");
	ASSERT_TRUE(!parses("a"), "bare provider: only the command expands it");
	ASSERT_TRUE(!parses("a:b  c:d"), "two spaces");
	ASSERT_TRUE(!parses(" a:b"), "leading space");
	ASSERT_TRUE(!parses("a:b "), "trailing space");
	ASSERT_TRUE(!parses("a:b\nc:d"), "newline");
	ASSERT_TRUE(!parses("a:b:c"), "three parts");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ASSERT_TRUE(!parses(big), "too long");
	ASSERT_TRUE(!parses("a:1 a:2 a:3 a:4 a:5 a:6 a:7 a:8 a:9 a:10 a:11 a:12 a:13 a:14 a:15 "
			    "a:16 a:17"),
		    "17 patterns");
}

TEST(match)
{
	ASSERT_TRUE(arms("", "ktraceb", "utrace"), "ktraceb's by default");
	ASSERT_TRUE(arms("", "ktraceb", "span_enter"), "spans by default");
	ASSERT_TRUE(!arms("", "python", "line"), "nothing else by default");
	ASSERT_TRUE(ktr_usdt_sel__match(NULL, "ktraceb", "span_exit"), "NULL: the default");
	ASSERT_TRUE(!ktr_usdt_sel__match(NULL, "libstdcxx", "throw"), "NULL: only ktraceb's");
	ASSERT_TRUE(arms("python:function__entry", "python", "function__entry"), "by name");
	ASSERT_TRUE(!arms("python:function__entry", "python", "function__return"), "only it");
	ASSERT_TRUE(!arms("python:function__entry", "python", "function__entry2"), "whole name");
	ASSERT_TRUE(arms("python:function__*", "python", "function__return"), "glob");
	ASSERT_TRUE(!arms("python:function__*", "python", "line"), "glob, not others");
	ASSERT_TRUE(arms("*:*", "node", "gc__start"), "everything");
	ASSERT_TRUE(arms("*:gc__*", "node", "gc__start"), "any provider");
	ASSERT_TRUE(!arms("*:gc__*", "node", "http__server__request"), "any provider, that name");
	ASSERT_TRUE(arms("lib?tdcxx:[tc]*", "libstdcxx", "throw"), "? and class");
	ASSERT_TRUE(arms("lib?tdcxx:[tc]*", "libstdcxx", "catch"), "class, other member");
	ASSERT_TRUE(!arms("lib?tdcxx:[!tc]*", "libstdcxx", "throw"), "negated class");
	ASSERT_TRUE(arms("lib?tdcxx:[!tc]*", "libstdcxx", "rethrow"), "negated class, match");
	ASSERT_TRUE(arms("p:[a-c]x", "p", "bx"), "range");
	ASSERT_TRUE(!arms("p:[a-c]x", "p", "dx"), "out of range");
	ASSERT_TRUE(arms("p:a[b", "p", "a[b"), "unclosed [ is a character");
	ASSERT_TRUE(arms("p:*a*b*c*", "p", "xxaxxbxxcxx"), "several stars");
	ASSERT_TRUE(!arms("p:*a*b*c*d", "p", "xxaxxbxxcxx"), "several stars, no match");
	ASSERT_TRUE(arms("py*:*_*", "python", "function__entry"), "both sides globs");
}

/* a pattern that would make a backtracking matcher take for ever returns at once */
TEST(match_no_blowup)
{
	char pat[KTR_USDT_SEL_TEXT], name[64];

	strcpy(pat, "p:");
	for (int i = 0; i < 30; i++)
		strcat(pat, "*a");
	strcat(pat, "b");
	memset(name, 'a', 63);
	name[63] = '\0';
	ASSERT_TRUE(!arms(pat, "p", name), "no match, quickly");
}

TEST(same)
{
	struct ktr_usdt_sel a, b;
	const char *why;

	ktr_usdt_sel__parse(&a, "python:* node:gc__*", &why);
	ktr_usdt_sel__parse(&b, "node:gc__* python:*", &why);
	ASSERT_TRUE(ktr_usdt_sel__same(&a, &b), "order does not matter");
	ktr_usdt_sel__parse(&b, "node:gc__*", &why);
	ASSERT_TRUE(!ktr_usdt_sel__same(&a, &b), "one fewer");
	ktr_usdt_sel__parse(&a, "", &why);
	ktr_usdt_sel__parse(&b, "", &why);
	ASSERT_TRUE(ktr_usdt_sel__same(&a, &b), "both the default");
}

TEST(hot)
{
	struct ktr_usdt_sel sel;
	char buf[512];
	const char *why;

	ASSERT_TRUE(ktr_usdt_sel__is_hot("python", "line"), "python:line");
	ASSERT_TRUE(!ktr_usdt_sel__is_hot("python", "gc__start"), "python:gc__start");
	ktr_usdt_sel__parse(&sel, "python:*", &why);
	ASSERT_EQ(ktr_usdt_sel__hot(&sel, buf, sizeof(buf)), 3, "python:* takes in three");
	ASSERT_STREQ(buf, "python:function__entry python:function__return python:line", "which");
	ktr_usdt_sel__parse(&sel, "python:function__entry python:gc__*", &why);
	ASSERT_EQ(ktr_usdt_sel__hot(&sel, buf, sizeof(buf)), 1, "one named");
	ASSERT_STREQ(buf, "python:function__entry", "that one");
	ktr_usdt_sel__parse(&sel, "python:gc__* libstdcxx:*", &why);
	ASSERT_EQ(ktr_usdt_sel__hot(&sel, buf, sizeof(buf)), 0, "none");
	ASSERT_STREQ(buf, "", "empty");
	ASSERT_EQ(ktr_usdt_sel__hot(NULL, buf, sizeof(buf)), 0, "the default: none");
	ktr_usdt_sel__parse(&sel, "*:*", &why);
	ASSERT_TRUE(ktr_usdt_sel__hot(&sel, buf, 40) > 10, "everything: all of the table");
	ASSERT_TRUE(strlen(buf) < 40, "cut to the buffer");
}

TEST_MAIN()
