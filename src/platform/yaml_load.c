/* SPDX-License-Identifier: BSD-3-Clause */
/* libyaml document -> conf tree. Limits depth and node count so that alias
 * bombs and deep nesting in hostile files fail cleanly. */
#include "platform/yaml_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/alloc.h"

#define MAX_DEPTH 32
#define MAX_NODES 100000

struct loader {
    yaml_document_t *doc;
    const char *file;
    int nodes;
    struct sim_error *err;
};

static struct conf_node *convert(struct loader *l, yaml_node_t *yn, int depth);

static bool convert_map(struct loader *l, yaml_node_t *yn, struct conf_node *n, int depth) {
    for (yaml_node_pair_t *p = yn->data.mapping.pairs.start; p < yn->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(l->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(l->doc, p->value);
        if (!k || !v) return err_at(l->err, l->file, n->line, "malformed mapping");
        if (k->type != YAML_SCALAR_NODE)
            return err_at(l->err, l->file, (int)k->start_mark.line + 1,
                          "map keys must be plain words");
        const char *key = (const char *)k->data.scalar.value;
        if (!strcmp(key, "<<") && k->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
            return err_at(l->err, l->file, (int)k->start_mark.line + 1,
                          "a YAML merge key ('<<'), which this reader does not apply: write the "
                          "merged keys out");
        if (conf_map_get(n, key))
            return err_at(l->err, l->file, (int)k->start_mark.line + 1, "duplicate key '%s'", key);
        struct conf_node *c = convert(l, v, depth + 1);
        if (!c) return false;
        conf_map_put(n, key, c);
    }
    return true;
}

static bool convert_seq(struct loader *l, yaml_node_t *yn, struct conf_node *n, int depth) {
    for (yaml_node_item_t *it = yn->data.sequence.items.start; it < yn->data.sequence.items.top;
         it++) {
        yaml_node_t *v = yaml_document_get_node(l->doc, *it);
        if (!v) return err_at(l->err, l->file, n->line, "malformed list");
        struct conf_node *c = convert(l, v, depth + 1);
        if (!c) return false;
        conf_seq_push(n, c);
    }
    return true;
}

static struct conf_node *convert(struct loader *l, yaml_node_t *yn, int depth) {
    int line = (int)yn->start_mark.line + 1;
    if (depth > MAX_DEPTH || ++l->nodes > MAX_NODES) {
        err_at(l->err, l->file, line, "document nested too deeply or too large");
        return NULL;
    }
    struct conf_node *n = NULL;
    bool ok = true;
    switch (yn->type) {
    case YAML_SCALAR_NODE:
        n = conf_new(CONF_SCALAR, l->file, line);
        n->value = xstrdup((const char *)yn->data.scalar.value);
        break;
    case YAML_MAPPING_NODE:
        n = conf_new(CONF_MAP, l->file, line);
        ok = convert_map(l, yn, n, depth);
        break;
    case YAML_SEQUENCE_NODE:
        n = conf_new(CONF_SEQ, l->file, line);
        ok = convert_seq(l, yn, n, depth);
        break;
    default:
        err_at(l->err, l->file, line, "unsupported YAML node");
        return NULL;
    }
    if (!ok) {
        conf_free(n);
        return NULL;
    }
    return n;
}

/* Flow nesting ([ and {) deeper than MAX_DEPTH, found in one linear pass
 * before libyaml sees the text: libyaml's scanner takes time quadratic in
 * the nesting depth (a 100,000-level bomb: over 20 s), so a hostile file
 * must be refused first. Quoted scalars and comments are skipped. Returns
 * the line of the first level too deep, or 0. */
static int flow_too_deep(const char *text, size_t len) {
    int depth = 0, line = 1;
    char quote = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '\n') line++;
        if (quote) {
            if (c == '\\' && quote == '"' && i + 1 < len)
                i++;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '#' &&
            (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n')) {
            while (i + 1 < len && text[i + 1] != '\n')
                i++;
        } else if ((c == '"' || c == '\'') &&
                   (i == 0 || strchr(" \t\n[{,:", text[i - 1]))) { /* a quoted scalar */
            quote = c;
        } else if (c == '[' || c == '{') {
            if (++depth > MAX_DEPTH) return line;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return 0;
}

/* Whether another document follows the first ("---" then keys): a
 * platform is one document, and a second one was silently ignored. */
static bool second_document(yaml_parser_t *parser, const char *name, struct sim_error *err) {
    yaml_document_t next;
    if (!yaml_parser_load(parser, &next)) return false; /* (a syntax error there: not ours) */
    yaml_node_t *top = yaml_document_get_root_node(&next);
    int line = top ? (int)top->start_mark.line + 1 : 0;
    yaml_document_delete(&next);
    if (!top) return false;
    err_at(err, name, line,
           "a second YAML document (after '---'), which would be ignored: a platform is "
           "one document; merge the two");
    return true;
}

/* The line of byte offset `at` in text. */
static int line_of(const char *text, size_t len, size_t at) {
    int line = 1;
    for (size_t i = 0; i < at && i < len; i++)
        line += text[i] == '\n';
    return line;
}

struct conf_node *yaml_load_buffer(const char *text, size_t len, const char *name,
                                   struct sim_error *err) {
    int deep = flow_too_deep(text, len);
    if (deep) {
        err_at(err, name, deep, "document nested too deeply (more than %d levels)", MAX_DEPTH);
        return NULL;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    struct conf_node *root = NULL;
    char *file = xstrdup(name);
    if (!yaml_parser_initialize(&parser)) {
        err_set(err, "%s: cannot initialise the YAML parser", name);
        free(file);
        return NULL;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        if (parser.error == YAML_READER_ERROR) /* its mark is not set: the offset is */
            err_at(err, name, line_of(text, len, parser.problem_offset),
                   "%s (byte 0x%02x, at offset %zu): the file must be UTF-8 text",
                   parser.problem ? parser.problem : "unreadable text",
                   parser.problem_offset < len ? (unsigned char)text[parser.problem_offset] : 0,
                   parser.problem_offset);
        else if (parser.context)
            err_at(err, name, (int)parser.problem_mark.line + 1,
                   "YAML syntax error: %s (%s started at line %d)",
                   parser.problem ? parser.problem : "unknown", parser.context,
                   (int)parser.context_mark.line + 1);
        else
            err_at(err, name, (int)parser.problem_mark.line + 1, "YAML syntax error: %s",
                   parser.problem ? parser.problem : "unknown");
        yaml_parser_delete(&parser);
        free(file);
        return NULL;
    }
    yaml_node_t *top = yaml_document_get_root_node(&doc);
    if (!top) {
        err_at(err, name, 0, "the platform file is empty");
    } else if (top->type != YAML_MAPPING_NODE) {
        err_at(err, name, (int)top->start_mark.line + 1,
               "the platform must be a map of keys (nodes:, inter:, ...)");
    } else {
        struct loader l = {&doc, file, 0, err};
        root = convert(&l, top, 0);
    }
    yaml_document_delete(&doc);
    if (root && second_document(&parser, name, err)) {
        conf_free(root);
        root = NULL;
    }
    yaml_parser_delete(&parser);
    if (root)
        root->owned_file = file;
    else
        free(file);
    return root;
}
