/* CSV cells (RFC 4180) that a spreadsheet cannot run: a text cell that begins with a character
 * a spreadsheet reads as the start of a formula is neutralised as OWASP's CSV injection rule
 * says, and a number stays a number. */
#ifndef ST_REPORT_CSV_H
#define ST_REPORT_CSV_H

#include <stdio.h>

/* True when the whole of s is one finite number as strtod reads it (no leading space): such a
 * cell is written as it is, and a JSON writer types it as a number. */
int st_csv_is_number(const char *s);

/* Write s as one CSV cell. A text cell (not st_csv_is_number) that begins with '=', '+', '-',
 * '@', a tab or a carriage return gets a single quote before it, so a spreadsheet shows it as
 * text instead of evaluating it (OWASP, "CSV Injection"), and is quoted; any other cell is
 * quoted only when it holds a comma, a double quote or a line break. Quotes inside are doubled
 * (RFC 4180, section 2). A negative number such as -1.5 is left as it is: it runs nothing. */
void st_csv_cell(FILE *out, const char *s);

#endif
