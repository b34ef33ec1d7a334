/* Text inside XML (and so inside the XHTML-compatible HTML and the SVG the reports write): the
 * five characters XML reserves are written as entities, so any scenario or job name is safe in
 * an element or an attribute. */
#ifndef ST_REPORT_XML_H
#define ST_REPORT_XML_H

#include <stdio.h>

/* Write s to out with &, <, >, " and ' escaped (XML 1.0, section 2.4). Control characters other
 * than tab and newline, which XML 1.0 does not allow, are written as a space. */
void st_xml_text(FILE *out, const char *s);

#endif
