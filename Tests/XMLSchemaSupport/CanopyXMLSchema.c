#include "CanopyXMLSchema.h"
#include <libxml/parser.h>
#include <libxml/xmlschemas.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    char *buffer;
    size_t capacity;
    size_t used;
    int count;
} MessageSink;

static void append(MessageSink *sink, const char *text) {
    if (sink->capacity == 0) return;
    size_t room = sink->capacity - 1 - sink->used;
    size_t length = strlen(text);
    if (length > room) length = room;
    memcpy(sink->buffer + sink->used, text, length);
    sink->used += length;
    sink->buffer[sink->used] = '\0';
}

static void collect(void *context, xmlErrorPtr error) {
    MessageSink *sink = context;
    char line[1024];
    snprintf(line, sizeof line, "line %d: %s", error ? error->line : 0,
             error && error->message ? error->message : "unknown error\n");
    append(sink, line);
    sink->count += 1;
}

/* Schema-parse errors go nowhere: the caller only learns that the schema could not be read. */
static void ignore(void *context, xmlErrorPtr error) { (void)context; (void)error; }

int canopy_xsd_validate(const char *document, size_t document_length,
                        const char *schema, size_t schema_length,
                        char *messages, size_t capacity) {
    MessageSink sink = {messages, capacity, 0, 0};
    if (capacity > 0) messages[0] = '\0';

    xmlSchemaParserCtxtPtr parser = xmlSchemaNewMemParserCtxt(schema, (int)schema_length);
    if (!parser) { append(&sink, "cannot create a schema parser\n"); return -1; }
    xmlSchemaSetParserStructuredErrors(parser, ignore, NULL);
    xmlSchemaPtr parsed = xmlSchemaParse(parser);
    xmlSchemaFreeParserCtxt(parser);
    if (!parsed) { append(&sink, "the schema does not parse\n"); return -1; }

    int result = -1;
    xmlSchemaValidCtxtPtr validation = xmlSchemaNewValidCtxt(parsed);
    xmlDocPtr doc = xmlReadMemory(document, (int)document_length, "document.xml", "UTF-8",
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!validation) {
        append(&sink, "cannot create a validation context\n");
    } else if (!doc) {
        append(&sink, "the document is not well-formed XML\n");
    } else {
        xmlSchemaSetValidStructuredErrors(validation, collect, &sink);
        int code = xmlSchemaValidateDoc(validation, doc);
        if (code != 0 && sink.count == 0) {
            char line[64];
            snprintf(line, sizeof line, "invalid (code %d)\n", code);
            append(&sink, line);
            sink.count = 1;
        }
        result = code == 0 ? 0 : sink.count;
    }
    if (doc) xmlFreeDoc(doc);
    if (validation) xmlSchemaFreeValidCtxt(validation);
    xmlSchemaFree(parsed);
    return result;
}
