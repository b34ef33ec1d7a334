/* Text in a Markdown table cell (CommonMark with GitHub's tables) that renders as the text it
 * is: no HTML, no link, no break out of the cell. */
#ifndef ST_REPORT_MD_H
#define ST_REPORT_MD_H

#include <stdio.h>

/* Write s for a table cell: '&', '<' and '>' as entities, so no HTML tag (a <script>, an
 * autolink such as <javascript:...>) is formed; a '(' right after a ']' escaped with a
 * backslash, so no inline link or image ([text](javascript:...)) is formed; '|' escaped, so no
 * cell is split; a line break as a space. Other text, brackets included, is left as it is. */
void st_md_text(FILE *out, const char *s);

#endif
