/* UTF-8 boundaries and well-formedness (RFC 3629, section 4's syntax), and bounded formatting
 * that cuts only between characters. */
#include "sim/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

static int continuation(unsigned char c)
{
    return (c & 0xc0) == 0x80;
}

size_t st_utf8_fit(const char *s, size_t len, size_t max)
{
    if (len <= max)
        return len;
    size_t k = max;
    /* s[max] is past the prefix: while it continues a character, that character straddles the
     * cut; a character has at most 3 continuation bytes. */
    for (int back = 0; back < 3 && k > 0 && continuation((unsigned char)s[k]); back++)
        k--;
    return continuation((unsigned char)s[k]) ? max : k;
}

/* The length of the well-formed sequence at s[0..len), or 0 when it is not one. The second
 * byte's ranges are RFC 3629's: they exclude overlong forms, surrogates and code points past
 * U+10FFFF. */
static size_t sequence(const unsigned char *s, size_t len)
{
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    else
        return 0;
    if (len < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (!continuation(s[i]))
            return 0;
    return n;
}

size_t st_utf8_check(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        size_t n = sequence(u + i, len - i);
        if (!n)
            return i;
        i += n;
    }
    return len;
}

/* "0xC0 0xAF": bytes s[0..k) into buf[0..n). */
static const char *bytes_of(const unsigned char *s, size_t k, char *buf, size_t n)
{
    size_t at = 0;
    for (size_t i = 0; i < k && at + 6 < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s0x%02X", i ? " " : "", s[i]);
    if (k == 0 && n)
        buf[0] = '\0';
    return buf;
}

const char *st_utf8_why(const char *s, size_t len, size_t at, char *buf, size_t n)
{
    const unsigned char *u = (const unsigned char *)s + at;
    size_t left = at < len ? len - at : 0, run = 1, need;
    char b[32];
    if (!left) {
        snprintf(buf, n, "no byte");
        return buf;
    }
    unsigned c = u[0];
    while (run < left && run < 4 && continuation(u[run]))
        run++; /* the lead byte and the continuation bytes after it */
    if (continuation((unsigned char)c)) {
        snprintf(buf, n, "byte 0x%02X continues a character that no lead byte starts", c);
        return buf;
    }
    if (c >= 0xf8 || (c >= 0xc0 && run == 1 && (c <= 0xc1 || c >= 0xf5))) {
        snprintf(buf, n, "byte 0x%02X never appears in UTF-8", c);
        return buf;
    }
    need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    unsigned long cp = c & (need == 2 ? 0x1f : need == 3 ? 0x0f : 0x07);
    for (size_t i = 1; i < run && i < need; i++)
        cp = cp << 6 | (u[i] & 0x3f);
    int overlong =
        c <= 0xc1 || (c == 0xe0 && run > 1 && u[1] < 0xa0) || (c == 0xf0 && run > 1 && u[1] < 0x90);
    if (run >= need && overlong)
        snprintf(buf, n, "bytes %s are an overlong form of U+%04lX, which UTF-8 forbids",
                 bytes_of(u, need, b, sizeof b), cp);
    else if (run >= need && c == 0xed)
        snprintf(buf, n, "bytes %s are a UTF-16 surrogate (U+%04lX), which UTF-8 does not encode",
                 bytes_of(u, need, b, sizeof b), cp);
    else if (run >= need && c >= 0xf4)
        snprintf(buf, n, "bytes %s are past U+10FFFF, the last code point",
                 bytes_of(u, need, b, sizeof b));
    else if (run >= 2 && (overlong || (c == 0xed && u[1] > 0x9f) || (c == 0xf4 && u[1] > 0x8f)))
        /* cut short, but its second byte already says what it would be (0xE0 0x80 ...) */
        snprintf(buf, n, "bytes %s begin %s", bytes_of(u, 2, b, sizeof b),
                 overlong    ? "an overlong form, which UTF-8 forbids"
                 : c == 0xed ? "a UTF-16 surrogate, which UTF-8 does not encode"
                             : "a code point past U+10FFFF, the last");
    else if (run < left)
        snprintf(buf, n,
                 "byte 0x%02X starts a %zu-byte sequence, but byte 0x%02X follows it (a file "
                 "saved as Latin-1 or Windows-1252?)",
                 c, need, u[run]);
    else
        snprintf(buf, n,
                 "byte 0x%02X starts a %zu-byte sequence, but the text ends after %zu byte%s of it",
                 c, need, run, run == 1 ? "" : "s");
    return buf;
}

const char *st_utf8_foreign_bom(const char *s, size_t len, size_t *bom_len)
{
    static const struct {
        const char *bom, *name;
        size_t n;
    } boms[] = {/* UTF-32LE first: its mark begins with UTF-16LE's */
                {"\xff\xfe\0\0", "UTF-32LE", 4},
                {"\0\0\xfe\xff", "UTF-32BE", 4},
                {"\xff\xfe", "UTF-16LE", 2},
                {"\xfe\xff", "UTF-16BE", 2}};
    for (size_t i = 0; i < sizeof boms / sizeof boms[0]; i++)
        if (len >= boms[i].n && memcmp(s, boms[i].bom, boms[i].n) == 0) {
            *bom_len = boms[i].n;
            return boms[i].name;
        }
    return NULL;
}

/* The length of s[0..len) without a last character that the end cut short. */
static size_t whole(const char *s, size_t len)
{
    size_t p = len;
    for (int back = 0; back < 4 && p > 0; back++)
        if (!continuation((unsigned char)s[--p]))
            break;
    return p < len && sequence((const unsigned char *)s + p, len - p) == len - p ? len : p;
}

int st_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
    int full = vsnprintf(buf, n, fmt, ap);
    if (full < 0 || n == 0 || (size_t)full < n)
        return full;
    /* Cut: vsnprintf kept n - 1 bytes, possibly ending inside a character. */
    size_t mark = sizeof ST_UTF8_CUT_MARK - 1, room = n - 1;
    size_t keep = room > mark ? st_utf8_fit(buf, room, room - mark) : whole(buf, room);
    if (room > mark)
        memcpy(buf + keep, ST_UTF8_CUT_MARK, mark + 1);
    else
        buf[keep] = '\0';
    return full;
}

int st_snprintf(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int full = st_vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return full;
}

/* Whether the well-formed character at u (n bytes) is a control character a terminal acts on:
 * C0 (below U+0020) but a newline or a tab, DEL, and C1 (U+0080 to U+009F, two bytes C2 80 to
 * C2 9F). */
static int control(const unsigned char *u, size_t n)
{
    if (n == 1)
        return (u[0] < 0x20 && u[0] != '\n' && u[0] != '\t') || u[0] == 0x7f;
    return n == 2 && u[0] == 0xc2 && u[1] < 0xa0;
}

/* s with each ill-formed byte and each control character as \xNN (a tab and a newline kept
 * where keep_lines), into out when it is not NULL (4 bytes a byte at most); returns the length. */
static size_t printable(const char *s, int keep_lines, char *out)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s), i = 0, o = 0;
    while (i < len) {
        size_t n = sequence(u + i, len - i);
        int escape = !n || control(u + i, n) || (!keep_lines && n == 1 && u[i] < 0x20);
        if (escape) { /* each byte of it as \xNN */
            for (size_t k = 0; k < (n ? n : 1); k++, o += 4)
                if (out)
                    snprintf(out + o, 5, "\\x%02x", u[i + k]);
            i += n ? n : 1;
            continue;
        }
        if (out)
            memcpy(out + o, u + i, n);
        o += n;
        i += n;
    }
    if (out)
        out[o] = '\0';
    return o;
}

void st_utf8_fputs_printable(const char *s, FILE *f)
{
    char *p = st_xmalloc(printable(s, 1, NULL) + 1);
    printable(s, 1, p);
    fputs(p, f);
    free(p);
}

char *st_utf8_one_line(const char *s)
{
    char *p = st_xmalloc(printable(s, 0, NULL) + 1);
    printable(s, 0, p);
    return p;
}

char *st_utf8_repaired(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s), i = 0, o = 0;
    char *out = st_xmalloc(3 * len + 1); /* each bad byte becomes the 3 bytes of U+FFFD */
    while (i < len) {
        size_t n = sequence(u + i, len - i);
        if (!n) {
            memcpy(out + o, "\xef\xbf\xbd", 3);
            o += 3;
            i++;
            continue;
        }
        memcpy(out + o, u + i, n);
        o += n;
        i += n;
    }
    out[o] = '\0';
    return out;
}
