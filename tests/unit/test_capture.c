/* test_capture.c -- the capture room's pure helpers (capture/cap_int.h):
 * HOST:PORT parsing and INFO field reading. The live parts run against
 * real servers in tests/e2e/capture_live.sh. */
#include <string.h>

#include "cap_int.h"
#include "minunit.h"

static void hostport_should_take_names_v4_and_v6(void)
{
    char h[64];
    int port = 0;
    cow_err e = COW_ERR_INIT;

    CHECK_INT(cap_parse_hostport("127.0.0.1:7302", h, sizeof(h), &port, &e), COW_OK);
    CHECK_STR(h, "127.0.0.1");
    CHECK_INT(port, 7302);
    CHECK_INT(cap_parse_hostport("replica-1.example:6379", h, sizeof(h), &port, &e), COW_OK);
    CHECK_STR(h, "replica-1.example");
    CHECK_INT(cap_parse_hostport("[::1]:6380", h, sizeof(h), &port, &e), COW_OK);
    CHECK_STR(h, "::1");
    CHECK_INT(port, 6380);
    CHECK_INT(cap_parse_hostport("host", h, sizeof(h), &port, &e), COW_EUSAGE);
    CHECK_INT(cap_parse_hostport(":6379", h, sizeof(h), &port, &e), COW_EUSAGE);
    CHECK_INT(cap_parse_hostport("h:0", h, sizeof(h), &port, &e), COW_EUSAGE);
    CHECK_INT(cap_parse_hostport("h:65536", h, sizeof(h), &port, &e), COW_EUSAGE);
    CHECK_INT(cap_parse_hostport("h:12x", h, sizeof(h), &port, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "port") != NULL);
    CHECK_INT(cap_parse_hostport("[::1]6380", h, sizeof(h), &port, &e), COW_EUSAGE);
}

static void info_fields_should_match_whole_keys(void)
{
    const char *info = "# Persistence\r\nrdb_bgsave_in_progress:1\r\n"
                       "rdb_bgsave_in_progress_x:7\r\naof_rewrite_in_progress:0\r\n"
                       "role:master\r\ntotal_forks:12\r\n";
    char v[16];
    CHECK_INT(cap_info_ll(info, "rdb_bgsave_in_progress", -1), 1);
    CHECK_INT(cap_info_ll(info, "aof_rewrite_in_progress", -1), 0);
    CHECK_INT(cap_info_ll(info, "total_forks", -1), 12);
    CHECK_INT(cap_info_ll(info, "module_fork_in_progress", -1), -1); /* absent */
    CHECK_INT(cap_info_ll(info, "rdb_bgsave", -1), -1);              /* a prefix */
    CHECK(cap_info_field(info, "role", v, sizeof(v)));
    CHECK_STR(v, "master");                                           /* no \r */
    CHECK(cap_info_field(info, "role", v, 4));
    CHECK_STR(v, "mas");                                              /* cut */
}

int main(void)
{
    RUN(hostport_should_take_names_v4_and_v6);
    RUN(info_fields_should_match_whole_keys);
    return REPORT();
}
