/* XML text escaping (XML 1.0, W3C Recommendation, sections 2.2 and 2.4). */
#include "report/xml.h"

void st_xml_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            fputc(c < 0x20 && c != '\t' && c != '\n' ? ' ' : c, out);
        }
    }
}
