#ifndef CANOPY_XML_SCHEMA_H
#define CANOPY_XML_SCHEMA_H
#include <stddef.h>

/* Validates an XML document against an XML Schema (XSD) with libxml2, for tests of the gate's
   JUnit output. This header deliberately exposes no libxml2 types: libxml2's headers pull in ICU's,
   which clash with Foundation's own copy of ICU in any Swift module that sees both.

   Returns the number of validation errors (0: valid), or -1 when the schema or the document
   could not be read. The messages, one per line, are written to `messages` (truncated to
   `capacity` bytes, always NUL-terminated when capacity > 0). */
int canopy_xsd_validate(const char *document, size_t document_length,
                        const char *schema, size_t schema_length,
                        char *messages, size_t capacity);
#endif
