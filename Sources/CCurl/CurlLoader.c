#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

// The functions resolved from libcurl. Written once, under pthread_once, and only read
// afterwards: the process-wide state a dynamically loaded library needs, as libcurl's own
// global initialisation is.
static struct {
    CURLcode (*global_init)(long);
    const char *(*easy_strerror)(CURLcode);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    const char *(*multi_strerror)(CURLMcode);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *);
    CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
    CURLUcode (*url_get)(const CURLU *, CURLUPart, char **, unsigned int);
    void (*free)(void *);
} curl;

static pthread_once_t loadOnce = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char loadError[512];

static void load(void) {
    // The runtime name of libcurl's ABI 4 (every libcurl since 7.16), then the development link.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libcurl.4.dylib", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(loadError, sizeof loadError, "libcurl could not be loaded: %s", reason ? reason : "not found");
        return;
    }
    const char *missing = NULL;
#define RESOLVE(field, symbol)                                              \
    do {                                                                    \
        *(void **)(&curl.field) = dlsym(library, symbol);                   \
        if (curl.field == NULL && missing == NULL) missing = symbol;        \
    } while (0)
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_wakeup, "curl_multi_wakeup");
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(multi_strerror, "curl_multi_strerror");
    RESOLVE(multi_setopt, "curl_multi_setopt");
    RESOLVE(url, "curl_url");
    RESOLVE(url_cleanup, "curl_url_cleanup");
    RESOLVE(url_set, "curl_url_set");
    RESOLVE(url_get, "curl_url_get");
    RESOLVE(free, "curl_free");
#undef RESOLVE
    if (missing != NULL) {
        // Older than 7.68 (curl_multi_poll, curl_multi_wakeup): refused whole rather than half used.
        snprintf(loadError, sizeof loadError, "the libcurl found is too old: it has no %s", missing);
        return;
    }
    loaded = 1;
}

static int ready(void) {
    pthread_once(&loadOnce, load);
    return loaded;
}

const char *canopy_curl_load_error(void) { return ready() ? NULL : loadError; }

CURLcode canopy_curl_global_init(long flags) { return ready() ? curl.global_init(flags) : CURLE_FAILED_INIT; }

const char *canopy_curl_easy_strerror(CURLcode code) {
    return ready() ? curl.easy_strerror(code) : loadError;
}

CURL *canopy_curl_easy_init(void) { return ready() ? curl.easy_init() : NULL; }

void canopy_curl_easy_cleanup(CURL *handle) {
    if (ready()) curl.easy_cleanup(handle);
}

CURLcode canopy_curl_easy_perform(CURL *handle) { return ready() ? curl.easy_perform(handle) : CURLE_FAILED_INIT; }

struct curl_slist *canopy_curl_slist_append(struct curl_slist *list, const char *text) {
    return ready() ? curl.slist_append(list, text) : NULL;
}

void canopy_curl_slist_free_all(struct curl_slist *list) {
    if (ready()) curl.slist_free_all(list);
}

CURLM *canopy_curl_multi_init(void) { return ready() ? curl.multi_init() : NULL; }

CURLMcode canopy_curl_multi_cleanup(CURLM *multi) { return ready() ? curl.multi_cleanup(multi) : CURLM_INTERNAL_ERROR; }

CURLMcode canopy_curl_multi_add_handle(CURLM *multi, CURL *handle) {
    return ready() ? curl.multi_add_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode canopy_curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return ready() ? curl.multi_remove_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode canopy_curl_multi_perform(CURLM *multi, int *running) {
    return ready() ? curl.multi_perform(multi, running) : CURLM_INTERNAL_ERROR;
}

CURLMcode canopy_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int extraCount, int timeoutMilliseconds, int *readyCount) {
    return ready() ? curl.multi_poll(multi, extra, extraCount, timeoutMilliseconds, readyCount) : CURLM_INTERNAL_ERROR;
}

CURLMcode canopy_curl_multi_wakeup(CURLM *multi) { return ready() ? curl.multi_wakeup(multi) : CURLM_INTERNAL_ERROR; }

CURLMsg *canopy_curl_multi_info_read(CURLM *multi, int *remaining) {
    return ready() ? curl.multi_info_read(multi, remaining) : NULL;
}

const char *canopy_curl_multi_strerror(CURLMcode code) { return ready() ? curl.multi_strerror(code) : loadError; }

CURLMcode canopy_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return ready() ? curl.multi_setopt(multi, option, value) : CURLM_INTERNAL_ERROR;
}

CURLU *canopy_curl_url(void) { return ready() ? curl.url() : NULL; }

void canopy_curl_url_cleanup(CURLU *url) {
    if (ready()) curl.url_cleanup(url);
}

CURLUcode canopy_curl_url_set(CURLU *url, CURLUPart part, const char *content, unsigned int flags) {
    return ready() ? curl.url_set(url, part, content, flags) : CURLUE_OUT_OF_MEMORY;
}

CURLUcode canopy_curl_url_get(CURLU *url, CURLUPart part, char **content, unsigned int flags) {
    return ready() ? curl.url_get(url, part, content, flags) : CURLUE_OUT_OF_MEMORY;
}

void canopy_curl_free(void *pointer) {
    if (ready()) curl.free(pointer);
}

// The variadic options, each with the one argument type its wrapper fixes.

CURLcode canopy_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return ready() ? curl.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode canopy_curl_setopt_offt(CURL *handle, CURLoption option, curl_off_t value) {
    return ready() ? curl.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode canopy_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return ready() ? curl.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode canopy_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return ready() ? curl.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode canopy_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    return ready() ? curl.easy_setopt(handle, option, list) : CURLE_FAILED_INIT;
}

CURLcode canopy_curl_setopt_write_callback(CURL *handle, curl_write_callback callback) {
    return ready() ? curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback) : CURLE_FAILED_INIT;
}

CURLcode canopy_curl_setopt_header_callback(CURL *handle, curl_write_callback callback) {
    return ready() ? curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback) : CURLE_FAILED_INIT;
}

CURLcode canopy_curl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return ready() ? curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback) : CURLE_FAILED_INIT;
}

CURLcode canopy_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return ready() ? curl.easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}

CURLcode canopy_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return ready() ? curl.easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}

CURLcode canopy_curl_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return ready() ? curl.easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}

CURLcode canopy_curl_getinfo_offt(CURL *handle, CURLINFO info, curl_off_t *value) {
    return ready() ? curl.easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}
