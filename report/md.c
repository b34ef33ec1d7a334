/* Markdown table cells (report/md.h). CommonMark 0.30: an inline link or image is link text in
 * brackets followed immediately by '(' (section 6.3), and a backslash before ASCII punctuation
 * makes it literal (section 2.4); raw HTML and autolinks start with '<' (sections 6.5, 6.6), and
 * an entity reference is its character (section 2.5). A reference link needs a definition at
 * the start of a line, which a table row, starting with '|', never is. */
#include "report/md.h"

void st_md_text(FILE *out, const char *s)
{
    for (char prev = '\0'; s && *s; prev = *s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '|':
            fputs("\\|", out);
            break;
        case '(':
            fputs(prev == ']' ? "\\(" : "(", out);
            break;
        case '\n':
        case '\r':
            fputc(' ', out);
            break;
        default:
            fputc(*s, out);
        }
    }
}
