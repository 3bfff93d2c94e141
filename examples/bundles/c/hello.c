/*
 * hello: a tools bundle in C (C99, libc only): an MCP server over stdio, one JSON-RPC 2.0 message a line.
 *
 *     gcc -O2 -std=c99 -o hello hello.c
 *     hello {name}   "Hello, <name>! (from C)"
 *
 * It carries its own small JSON reader. A line that is not a JSON object is skipped (reported on stderr); at end
 * of input it exits 0. Lines may be up to 16 MiB.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct json {
    enum kind kind;
    char *text;          /* J_STR: decoded UTF-8; J_NUM/J_BOOL: as written */
    char *key;           /* set when this value is a member of an object */
    struct json *child;  /* first member or element */
    struct json *next;   /* next sibling */
} json;

typedef struct { const char *s; size_t i, n; } parser;

static void skip_ws(parser *p) {
    while (p->i < p->n && strchr(" \t\r\n", p->s[p->i]) && p->s[p->i]) p->i++;
}

static json *node(enum kind kind) {
    json *j = calloc(1, sizeof *j);
    if (!j) { perror("hello"); exit(70); }
    j->kind = kind;
    return j;
}

static void release(json *j) {
    while (j) {
        json *next = j->next;
        release(j->child);
        free(j->text);
        free(j->key);
        free(j);
        j = next;
    }
}

static int hex4(parser *p, unsigned *out) {
    if (p->i + 4 > p->n) return 0;
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        char c = p->s[p->i++];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    *out = v;
    return 1;
}

static size_t put_utf8(char *out, unsigned cp) {
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xc0 | cp >> 6); out[1] = (char)(0x80 | (cp & 0x3f)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12); out[1] = (char)(0x80 | ((cp >> 6) & 0x3f)); out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18); out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f)); out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

static char *parse_string(parser *p) { /* p->s[p->i] is just past the opening quote */
    char *out = malloc(p->n - p->i + 1);
    size_t o = 0;
    if (!out) { perror("hello"); exit(70); }
    while (p->i < p->n) {
        char c = p->s[p->i++];
        if (c == '"') { out[o] = 0; return out; }
        if ((unsigned char)c < 0x20) break;
        if (c != '\\') { out[o++] = c; continue; }
        if (p->i >= p->n) break;
        char e = p->s[p->i++];
        unsigned cp;
        switch (e) {
            case 'n': out[o++] = '\n'; break;
            case 't': out[o++] = '\t'; break;
            case 'r': out[o++] = '\r'; break;
            case 'b': out[o++] = '\b'; break;
            case 'f': out[o++] = '\f'; break;
            case '"': case '\\': case '/': out[o++] = e; break;
            case 'u':
                if (!hex4(p, &cp)) goto bad;
                if (cp >= 0xd800 && cp < 0xdc00 && p->i + 1 < p->n && p->s[p->i] == '\\' && p->s[p->i + 1] == 'u') {
                    unsigned low;
                    p->i += 2;
                    if (!hex4(p, &low) || low < 0xdc00 || low > 0xdfff) goto bad;
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                }
                o += put_utf8(out + o, cp);
                break;
            default: goto bad;
        }
    }
bad:
    free(out);
    return NULL;
}

static json *parse_value(parser *p, int depth);

static json *parse_members(parser *p, int depth, char close, int keyed) {
    json *j = node(keyed ? J_OBJ : J_ARR), **tail = &j->child;
    skip_ws(p);
    if (p->i < p->n && p->s[p->i] == close) { p->i++; return j; }
    for (;;) {
        char *key = NULL;
        if (keyed) {
            skip_ws(p);
            if (p->i >= p->n || p->s[p->i] != '"') goto bad;
            p->i++;
            if (!(key = parse_string(p))) goto bad;
            skip_ws(p);
            if (p->i >= p->n || p->s[p->i++] != ':') { free(key); goto bad; }
        }
        json *v = parse_value(p, depth + 1);
        if (!v) { free(key); goto bad; }
        v->key = key;
        *tail = v;
        tail = &v->next;
        skip_ws(p);
        if (p->i < p->n && p->s[p->i] == ',') { p->i++; continue; }
        if (p->i < p->n && p->s[p->i] == close) { p->i++; return j; }
        goto bad;
    }
bad:
    release(j);
    return NULL;
}

static json *parse_value(parser *p, int depth) {
    if (depth > 64) return NULL;
    skip_ws(p);
    if (p->i >= p->n) return NULL;
    char c = p->s[p->i];
    if (c == '{') { p->i++; return parse_members(p, depth, '}', 1); }
    if (c == '[') { p->i++; return parse_members(p, depth, ']', 0); }
    if (c == '"') {
        p->i++;
        char *s = parse_string(p);
        if (!s) return NULL;
        json *j = node(J_STR);
        j->text = s;
        return j;
    }
    size_t start = p->i;
    while (p->i < p->n && !strchr(",}] \t\r\n", p->s[p->i])) p->i++;
    size_t len = p->i - start;
    if (len == 0) return NULL;
    json *j;
    if (len == 4 && !strncmp(p->s + start, "null", 4)) return node(J_NULL);
    if ((len == 4 && !strncmp(p->s + start, "true", 4)) || (len == 5 && !strncmp(p->s + start, "false", 5))) j = node(J_BOOL);
    else if (strspn(p->s + start, "0123456789+-.eE") >= len) j = node(J_NUM);
    else return NULL;
    j->text = strndup(p->s + start, len);
    return j;
}

static json *member(const json *obj, const char *key) {
    if (!obj || obj->kind != J_OBJ) return NULL;
    for (json *m = obj->child; m; m = m->next)
        if (!strcmp(m->key, key)) return m;
    return NULL;
}

static const char *string_member(const json *obj, const char *key) {
    json *m = member(obj, key);
    return m && m->kind == J_STR ? m->text : NULL;
}

static void write_string(const char *s) {
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c == '\n') fputs("\\n", stdout);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static void write_id(const json *id) {
    if (id->kind == J_STR) write_string(id->text);
    else fputs(id->text ? id->text : "null", stdout);
}

static void answer(const json *id, const char *method, const json *params) {
    fputs("{\"jsonrpc\":\"2.0\",\"id\":", stdout);
    write_id(id);
    if (!strcmp(method, "initialize")) {
        const char *asked = string_member(params, "protocolVersion");
        const char *version = "2025-06-18";
        const char *known[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
        for (int k = 0; k < 4; k++)
            if (asked && !strcmp(asked, known[k])) version = known[k];
        printf(",\"result\":{\"protocolVersion\":\"%s\",\"capabilities\":{\"tools\":{}},"
               "\"serverInfo\":{\"name\":\"hello-c\",\"version\":\"1.0.0\"}}}\n", version);
    } else if (!strcmp(method, "ping")) {
        fputs(",\"result\":{}}\n", stdout);
    } else if (!strcmp(method, "tools/list")) {
        fputs(",\"result\":{\"tools\":[{\"name\":\"hello\",\"description\":\"Greets someone by name (C).\","
              "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},"
              "\"required\":[\"name\"]}}]}}\n", stdout);
    } else if (!strcmp(method, "tools/call")) {
        const char *tool = string_member(params, "name");
        const char *name = string_member(member(params, "arguments"), "name");
        if (!tool || strcmp(tool, "hello")) {
            fputs(",\"error\":{\"code\":-32602,\"message\":", stdout);
            write_string("Unknown tool");
            fputs("}}\n", stdout);
        } else if (!name) {
            fputs(",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"'name' must be a string\"}],\"isError\":true}}\n", stdout);
        } else {
            size_t size = strlen(name) + 32;
            char *greeting = malloc(size);
            if (!greeting) { perror("hello"); exit(70); }
            snprintf(greeting, size, "Hello, %s! (from C)", name);
            fputs(",\"result\":{\"content\":[{\"type\":\"text\",\"text\":", stdout);
            write_string(greeting);
            fputs("}]}}\n", stdout);
            free(greeting);
        }
    } else {
        fputs(",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}\n", stdout);
    }
    fflush(stdout);
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) != -1) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (len == 0) continue;
        if (len > 16 * 1024 * 1024) { fprintf(stderr, "hello: skipped an input line of %zd bytes\n", len); continue; }
        parser p = {line, 0, (size_t)len};
        json *message = parse_value(&p, 0);
        skip_ws(&p);
        if (!message || message->kind != J_OBJ || p.i != p.n) {
            fprintf(stderr, "hello: skipped an input line that is not a JSON object\n");
            release(message);
            continue;
        }
        json *id = member(message, "id");
        const char *method = string_member(message, "method");
        if (id && method && (id->kind == J_STR || id->kind == J_NUM)) answer(id, method, member(message, "params"));
        release(message);
    }
    free(line);
    return 0;
}
