#ifndef CANOPY_CLIBXML2_SHIM_H
#define CANOPY_CLIBXML2_SHIM_H
/* Debian builds libxml2 with ICU, so encoding.h includes ICU's headers; a Swift module that also
   loads Foundation (which carries its own ICU) then sees two different definitions of ICU's types
   and fails to build. ICU only adds trailing pointer fields to xmlCharEncodingHandler, a struct
   Canopy never allocates or reads, so the headers are read without it. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

/* xmlFree is a global function pointer, which Swift 6 treats as shared mutable state. */
static inline void canopy_xml_free(void *pointer) { xmlFree(pointer); }
#endif
