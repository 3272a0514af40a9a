#ifndef CANOPY_CLIBXML2_SHIM_H
#define CANOPY_CLIBXML2_SHIM_H
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

/* xmlFree is a global function pointer, which Swift 6 treats as shared mutable state. */
static inline void canopy_xml_free(void *pointer) { xmlFree(pointer); }
#endif
