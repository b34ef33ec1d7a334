/* UTF-8 text: where a character ends, whether bytes are well formed, and formatting into a
 * fixed buffer that never leaves half a character. Every name a user gives (a job, a tenant, a
 * file) is printed by several writers; a byte cut in the middle of a character makes a JSON or
 * XML report unparseable, so every bounded copy goes through here. */
#ifndef ST_SIM_UTF8_H
#define ST_SIM_UTF8_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* What a cut text ends with, so a reader sees that it was cut: ASCII, so it fits any format. */
#define ST_UTF8_CUT_MARK "..."

/* The most bytes of a value a message quotes: one longer is cut there, on a character boundary,
 * and marked with ST_UTF8_CUT_MARK, so that the message's rest (its closing quote, a "did you
 * mean", a hint) still fits an st_err's 256 bytes. */
#define ST_UTF8_QUOTE_MAX 64

/* The printf arguments of "%.*s%s" for the C string s cut as ST_UTF8_QUOTE_MAX says ("unknown
 * policy '%.*s%s'", ST_UTF8_QUOTED(name)). s is evaluated more than once; the caller includes
 * <string.h>. */
#define ST_UTF8_QUOTED(s)                                                                          \
    (int)st_utf8_fit((s), strlen(s), ST_UTF8_QUOTE_MAX), (s),                                      \
        (strlen(s) > ST_UTF8_QUOTE_MAX ? ST_UTF8_CUT_MARK : "")

/* The length of the longest prefix of s[0..len) that has at most max bytes and ends on a
 * character boundary: len when len <= max, else max backed off over the continuation bytes of
 * the character that straddles it (at most 3, so ill-formed input still cuts near max). */
size_t st_utf8_fit(const char *s, size_t len, size_t max);

/* The offset of the first byte of s[0..len) that is not well-formed UTF-8 (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF, no truncated sequence), or len when
 * every byte is. */
size_t st_utf8_check(const char *s, size_t len);

/* What is wrong with the ill-formed sequence that starts at s[at] (st_utf8_check's offset) in
 * words, its bytes named, into buf[0..n): "bytes 0xC0 0xAF are an overlong form of U+002F",
 * "bytes 0xED 0xA0 0x80 are a UTF-16 surrogate (U+D800), which UTF-8 does not encode", "byte
 * 0xE9 starts a 3-byte sequence, but byte 0x0A follows it (a file saved as Latin-1 or
 * Windows-1252?)". Returns buf. */
const char *st_utf8_why(const char *s, size_t len, size_t at, char *buf, size_t n);

/* The encoding whose byte-order mark s[0..len) begins with when it is not UTF-8's ("UTF-16LE",
 * "UTF-16BE", "UTF-32LE", "UTF-32BE"), its length in *bom_len; NULL when there is none. */
const char *st_utf8_foreign_bom(const char *s, size_t len, size_t *bom_len);

/* vsnprintf into buf[0..n) that cuts only on a character boundary: when the text does not fit,
 * it is cut back to a boundary and ends with ST_UTF8_CUT_MARK (when n leaves room for it).
 * Returns the length the whole text has, as vsnprintf does, so `>= n` tells a cut. */
int st_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 0)))
#endif
    ;
int st_snprintf(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Write s to f with what a terminal would act on made visible: each byte of an ill-formed
 * sequence, and each control character but a newline and a tab (C0, DEL, C1), as \xNN. For
 * messages that echo what the user typed (an option's value, a file name). */
void st_utf8_fputs_printable(const char *s, FILE *f);

/* A malloc'd copy of s as one line of text: each byte of an ill-formed sequence and each control
 * character, a tab and a newline too, as \xNN (st_utf8_fputs_printable's spelling). For a cell
 * of a file split at tabs and newlines (a sweep's journal and its results). */
char *st_utf8_one_line(const char *s);

/* A malloc'd copy of s with each byte that is not well-formed UTF-8 replaced by U+FFFD, for a
 * report that must stay UTF-8 (a file name in JSON). */
char *st_utf8_repaired(const char *s);

#endif
