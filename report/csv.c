/* CSV cells, RFC 4180 and OWASP's CSV injection rule (report/csv.h). */
#include "report/csv.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int st_csv_is_number(const char *s)
{
    char *end;
    if (!*s || isspace((unsigned char)s[0]))
        return 0;
    double v = strtod(s, &end);
    return !*end && isfinite(v);
}

void st_csv_cell(FILE *out, const char *s)
{
    /* OWASP: cells starting with = + - @ tab or carriage return are formulas to a spreadsheet
     * (https://owasp.org/www-community/attacks/CSV_Injection). */
    int formula = s[0] && strchr("=+-@\t\r", s[0]) && !st_csv_is_number(s);
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputs(formula ? "\"'" : "\"", out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}
