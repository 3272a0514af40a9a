#ifndef CANOPY_CCURL_SHIM_H
#define CANOPY_CCURL_SHIM_H

// The gcc/clang type-checking macros only help when the option is a literal;
// every wrapper below passes it through a parameter, so they are switched off.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call.
// Each wrapper fixes the type of the one variadic argument, so Swift sees an
// ordinary function and the value reaches libcurl with the type it expects.

static inline CURLcode canopy_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode canopy_curl_setopt_offt(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

// libcurl copies string options (except CURLOPT_POSTFIELDS), so the caller's
// buffer only has to live for the duration of this call.
static inline CURLcode canopy_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode canopy_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode canopy_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

// Callbacks get their own wrappers so the function pointer keeps its exact C
// type and cannot be installed under the wrong option.

static inline CURLcode canopy_curl_setopt_write_callback(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode canopy_curl_setopt_header_callback(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

static inline CURLcode canopy_curl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode canopy_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

// The returned string belongs to the handle and is valid until the handle is
// reused or cleaned up.
static inline CURLcode canopy_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode canopy_curl_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode canopy_curl_getinfo_offt(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

// curl_multi_setopt is variadic too.
static inline CURLMcode canopy_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

#endif
