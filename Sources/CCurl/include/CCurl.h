#ifndef CANOPY_CCURL_SHIM_H
#define CANOPY_CCURL_SHIM_H

// The gcc/clang type-checking macros only help when the option is a literal;
// every wrapper below passes it through a parameter, so they are switched off.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

// libcurl is loaded when a command first fetches, not when the program starts: its
// dependencies (TLS, Kerberos, LDAP, SSH, IDN: some 27 libraries) took 5 ms of every start,
// a quarter of a `canopy check` that fetches nothing. Everything Canopy calls goes through
// these functions, which load the library on first use. Until it is loaded (or when it
// cannot be), each returns what libcurl returns for a failure: NULL, CURLE_FAILED_INIT,
// CURLM_INTERNAL_ERROR or CURLUE_OUT_OF_MEMORY.

/// Why libcurl could not be loaded, or NULL when it is loaded (loads it first if needed).
const char *canopy_curl_load_error(void);

CURLcode canopy_curl_global_init(long flags);
const char *canopy_curl_easy_strerror(CURLcode code);
CURL *canopy_curl_easy_init(void);
void canopy_curl_easy_cleanup(CURL *handle);
CURLcode canopy_curl_easy_perform(CURL *handle);
struct curl_slist *canopy_curl_slist_append(struct curl_slist *list, const char *text);
void canopy_curl_slist_free_all(struct curl_slist *list);

CURLM *canopy_curl_multi_init(void);
CURLMcode canopy_curl_multi_cleanup(CURLM *multi);
CURLMcode canopy_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode canopy_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode canopy_curl_multi_perform(CURLM *multi, int *running);
CURLMcode canopy_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int extraCount, int timeoutMilliseconds, int *ready);
CURLMcode canopy_curl_multi_wakeup(CURLM *multi);
CURLMsg *canopy_curl_multi_info_read(CURLM *multi, int *remaining);
const char *canopy_curl_multi_strerror(CURLMcode code);

CURLU *canopy_curl_url(void);
void canopy_curl_url_cleanup(CURLU *url);
CURLUcode canopy_curl_url_set(CURLU *url, CURLUPart part, const char *content, unsigned int flags);
CURLUcode canopy_curl_url_get(CURLU *url, CURLUPart part, char **content, unsigned int flags);
void canopy_curl_free(void *pointer);

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
// call. Each wrapper fixes the type of the one variadic argument, so Swift sees an ordinary
// function and the value reaches libcurl with the type it expects.
CURLcode canopy_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode canopy_curl_setopt_offt(CURL *handle, CURLoption option, curl_off_t value);
// libcurl copies string options (except CURLOPT_POSTFIELDS), so the caller's buffer only has
// to live for the duration of this call.
CURLcode canopy_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode canopy_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode canopy_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list);
// Callbacks get their own wrappers so the function pointer keeps its exact C type and cannot
// be installed under the wrong option.
CURLcode canopy_curl_setopt_write_callback(CURL *handle, curl_write_callback callback);
CURLcode canopy_curl_setopt_header_callback(CURL *handle, curl_write_callback callback);
CURLcode canopy_curl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback);
CURLcode canopy_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
// The returned string belongs to the handle and is valid until the handle is reused or cleaned up.
CURLcode canopy_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode canopy_curl_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode canopy_curl_getinfo_offt(CURL *handle, CURLINFO info, curl_off_t *value);
CURLMcode canopy_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

#endif
